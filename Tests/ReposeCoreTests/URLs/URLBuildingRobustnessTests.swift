import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@Suite("URLBuilding: hosts, ports, case, fragments and odd input")
struct URLBuildingRobustnessTests {
    static let oddStrings: [String] = [
        "", " ", "%", "%%", "%zz", "%3", "%3F", "ü", "𝄞", "\u{301}", "#\u{301}?\u{301}&\u{301}=", "://", ":", "/",
        "//", "///", "?", "#", "&", "=", "[", "]", "[::1]", "http://[", "http://[::1", "http://[::1]:x", "\0",
        "\n\t", "a b", "..", "../../..", "http://", "http:", "HTTP://A.B", "//x@y:1", "@", "x@@y", "?#?#",
        String(repeating: "a/../", count: 5_000), String(repeating: "../", count: 5_000),
        String(repeating: "ü", count: 10_000), String(repeating: "%", count: 10_000),
    ]

    let resource: URL

    init() throws {
        let base = try #require(URLBuilding.serviceBaseURL("https://zingle.frotz/v1"))
        resource = try #require(URLBuilding.resourceURL(base: base, path: "/a/b"))
    }

    @Test("odd strings never crash, and whatever comes back is a valid URL", arguments: oddStrings)
    func oddInput(string: String) {
        let derived = [
            URLBuilding.child(of: resource, string) ?? resource, URLBuilding.withParam(resource, string, string),
            URLBuilding.withParam(resource, "k", string), URLBuilding.withParams(resource, [string: string]),
        ]
        for url in derived {
            #expect(url.absoluteString.hasPrefix("https://zingle.frotz/v1/a/b"))
            #expect(URLBuilding.Parts(parsing: url.absoluteString) != nil)
        }
        let optional = [
            URLBuilding.serviceBaseURL(string), URLBuilding.absoluteURL(string),
            URLBuilding.relative(to: resource, string), URLBuilding.resourceURL(base: resource, path: string),
        ]
        for url in optional.compactMap({ $0 }) {
            #expect(URLBuilding.Parts(parsing: url.absoluteString) != nil)
        }
    }

    @Test("a file URL with escapes, made by Foundation, accepts children and params")
    func fileURLBase() {
        // ASCII only: Apple's file URLs decompose non-ASCII names, Linux's do not.
        let folder = URL(fileURLWithPath: "/tmp/a b/c", isDirectory: true)
        #expect(URLBuilding.child(of: folder, "d e")?.absoluteString == "file:///tmp/a%20b/c/d%20e")
        #expect(URLBuilding.withParam(folder, "q", "1").absoluteString == "file:///tmp/a%20b/c/?q=1")
    }

    @Test("an IPv6 host with a port survives every operation")
    func ipv6() throws {
        let base = try #require(URLBuilding.serviceBaseURL("http://[::1]:8080/x"))
        #expect(base.absoluteString == "http://[::1]:8080/x/")
        let resource = try #require(URLBuilding.resourceURL(base: base, path: "y"))
        #expect(URLBuilding.child(of: resource, "z")?.absoluteString == "http://[::1]:8080/x/y/z")
        #expect(URLBuilding.relative(to: resource, "/z")?.absoluteString == "http://[::1]:8080/z")
        #expect(URLBuilding.withParam(resource, "q", "1").absoluteString == "http://[::1]:8080/x/y?q=1")
        #expect(URLBuilding.absoluteURL("http://[2001:DB8::A]/")?.absoluteString == "http://[2001:db8::a]/")
        #expect(URLBuilding.absoluteURL("http://[::ffff:192.0.2.1]/")?.absoluteString == "http://[::ffff:192.0.2.1]/")
    }

    @Test(
        "a malformed host or port is unparseable",
        arguments: [
            "http://[::1::2]/", "http://[12345::]/", "http://[::1]x/", "http://[1:2:3:4:5:6:7]/", "http://[::g]/",
            "http://[::1.2.3.256]/", "http://foo.bar:80a/", "http://foo bar/", "http://fü.bar/", "http://a@b@c/",
        ])
    func malformedAuthority(string: String) {
        #expect(URLBuilding.serviceBaseURL(string) == nil)
        #expect(URLBuilding.absoluteURL(string) == nil)
    }

    @Test("ports and userinfo are kept; scheme and host are lowercased, the rest is not")
    func portsUserinfoAndCase() {
        #expect(URLBuilding.serviceBaseURL("http://foo.bar:8080")?.absoluteString == "http://foo.bar:8080/")
        #expect(
            URLBuilding.serviceBaseURL("HTTPS://User:Pw@Zingle.FROTZ:443/V1?Q=X")?.absoluteString
                == "https://User:Pw@zingle.frotz:443/V1/?Q=X")
        #expect(URLBuilding.absoluteURL("HTTP://Foo.Bar/%C3%BC")?.absoluteString == "http://foo.bar/%C3%BC")
        #expect(URLBuilding.relative(to: resource, "FTP://Other.Host/C")?.absoluteString == "ftp://other.host/C")
    }

    @Test("a fragment is dropped from a base URL and taken from an href, never from the resource")
    func fragments() throws {
        let base = try #require(URLBuilding.serviceBaseURL("https://foo.bar/v1#top"))
        #expect(base.absoluteString == "https://foo.bar/v1/")
        #expect(URLBuilding.relative(to: resource, "#part")?.absoluteString == "https://zingle.frotz/v1/a/b#part")
        let withFragment = try #require(URLBuilding.absoluteURL("https://foo.bar/a#top"))
        #expect(URLBuilding.relative(to: withFragment, "b")?.absoluteString == "https://foo.bar/b")
        #expect(URLBuilding.child(of: withFragment, "b")?.absoluteString == "https://foo.bar/a/b#top")
        #expect(URLBuilding.withParam(withFragment, "q", "1").absoluteString == "https://foo.bar/a?q=1#top")
    }
}
