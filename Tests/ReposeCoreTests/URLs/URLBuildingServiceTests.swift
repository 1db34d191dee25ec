import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@Suite("URLBuilding: service base and resource URLs")
struct URLBuildingServiceTests {
    @Test(
        "D1 the base URL gets a trailing slash on its path, an existing one is kept",
        arguments: [
            ("http://foo.bar", "http://foo.bar/"),
            ("http://foo.bar/", "http://foo.bar/"),
            ("http://foo.bar/baz", "http://foo.bar/baz/"),
            ("http://foo.bar/baz/", "http://foo.bar/baz/"),
        ])
    func baseTrailingSlash(base: String, expected: String) {
        #expect(URLBuilding.serviceBaseURL(base)?.absoluteString == expected)
    }

    @Test(
        "D2 the base URL keeps its query, with the slash inserted before the ?",
        arguments: [
            ("http://foo.bar?you=mysunshine", "http://foo.bar/?you=mysunshine"),
            ("http://foo.bar/?you=mysunshine", "http://foo.bar/?you=mysunshine"),
            ("http://foo.bar/baz?x=y", "http://foo.bar/baz/?x=y"),
            ("http://foo.bar/baz/?you=mysunshine", "http://foo.bar/baz/?you=mysunshine"),
        ])
    func baseQuery(base: String, expected: String) {
        #expect(URLBuilding.serviceBaseURL(base)?.absoluteString == expected)
    }

    @Test("D3 the base URL may be given as a String or as a URL")
    func baseStringOrURL() throws {
        #expect(URLBuilding.serviceBaseURL("https://frotzle.zing")?.absoluteString == "https://frotzle.zing/")
        let url = try #require(URL(string: "https://frotzle.zing"))
        #expect(URLBuilding.serviceBaseURL(url)?.absoluteString == "https://frotzle.zing/")
    }

    @Test(
        "D4 a missing, empty or unparseable base URL gives nil",
        arguments: ["", "http://[bad", "not a url", "\0", "foo.bar/v1", "/v1", "http://", "https:foo", "1http://x"])
    func baseInvalid(base: String) {
        #expect(URLBuilding.serviceBaseURL(base) == nil)
    }

    @Test("D4 a nil base URL, as String or URL, gives nil")
    func baseNil() {
        #expect(URLBuilding.serviceBaseURL(nil as String?) == nil)
        #expect(URLBuilding.serviceBaseURL(nil as URL?) == nil)
    }

    @Test(
        "D5 a path is appended to the base path, leading slash optional, trailing slash kept",
        arguments: [
            ("https://foo.bar", "", "https://foo.bar/"),
            ("https://foo.bar", "baz", "https://foo.bar/baz"),
            ("https://foo.bar", "baz/fez", "https://foo.bar/baz/fez"),
            ("https://foo.bar", "baz/fez/", "https://foo.bar/baz/fez/"),
            ("https://foo.bar/v1", "baz", "https://foo.bar/v1/baz"),
            ("https://foo.bar/v1", "baz/fez", "https://foo.bar/v1/baz/fez"),
            ("https://foo.bar/v1", "baz/...", "https://foo.bar/v1/baz/..."),
        ])
    func resourcePath(base: String, path: String, expected: String) throws {
        let baseURL = try #require(URLBuilding.serviceBaseURL(base))
        #expect(URLBuilding.resourceURL(base: baseURL, path: path)?.absoluteString == expected)
        #expect(URLBuilding.resourceURL(base: baseURL, path: "/" + path)?.absoluteString == expected)
    }

    /// D5 once escaped these as `%2E` / `%2E%2E`; W3 refuses them, since many servers decode before removing dot
    /// segments.
    @Test(
        "W3 a path with a dot segment gives no resource URL",
        arguments: ["./baz", "../baz", "baz/.", "baz/..", ".", "..", "a/./b", "a/../b"])
    func resourcePathDotSegments(path: String) throws {
        let baseURL = try #require(URLBuilding.serviceBaseURL("https://foo.bar/v1"))
        #expect(URLBuilding.resourceURL(base: baseURL, path: path) == nil)
        #expect(URLBuilding.resourceURL(base: baseURL, path: "/" + path) == nil)
    }

    @Test(
        "D5 a double slash or a scheme in a resource path is plain path text",
        arguments: [
            ("//other.host", "https://foo.bar/v1//other.host"),
            ("http://other.host", "https://foo.bar/v1/http://other.host"),
        ])
    func resourcePathLooksLikeURL(path: String, expected: String) throws {
        let baseURL = try #require(URLBuilding.serviceBaseURL("https://foo.bar/v1"))
        #expect(URLBuilding.resourceURL(base: baseURL, path: path)?.absoluteString == expected)
    }

    @Test(
        "D7 path characters are escaped, even ones that look like a query or an escape",
        arguments: [
            ("?foo=bar", "https://foo.bar/v1/%3Ffoo=bar"),
            ("%3F", "https://foo.bar/v1/%253F"),
            ("𝄞", "https://foo.bar/v1/%F0%9D%84%9E"),
            ("a b#c", "https://foo.bar/v1/a%20b%23c"),
        ])
    func resourcePathEscaping(path: String, expected: String) throws {
        let baseURL = try #require(URLBuilding.serviceBaseURL("https://foo.bar/v1"))
        #expect(URLBuilding.resourceURL(base: baseURL, path: path)?.absoluteString == expected)
        #expect(URLBuilding.resourceURL(base: baseURL, path: "/" + path)?.absoluteString == expected)
    }

    @Test(
        "D8 the base URL's query params are carried to every resource",
        arguments: [
            ("https://foo.bar/?a=b&x=y", "baz/fez/", "https://foo.bar/baz/fez/?a=b&x=y"),
            ("https://foo.bar/v1?a=b&x=y", "baz", "https://foo.bar/v1/baz?a=b&x=y"),
        ])
    func resourceKeepsBaseQuery(base: String, path: String, expected: String) throws {
        let baseURL = try #require(URLBuilding.serviceBaseURL(base))
        #expect(URLBuilding.resourceURL(base: baseURL, path: path)?.absoluteString == expected)
    }

    @Test(
        "D9 a path under an explicit base gets a joining slash when needed and is escaped",
        arguments: [
            ("http://fraz.bot/", "/bar", "http://fraz.bot/bar"),
            ("http://fraz.bot", "bar", "http://fraz.bot/bar"),
            (
                "http://alpha.beta/gamma", "delta?upsilon&omega",
                "http://alpha.beta/gamma/delta%3Fupsilon&omega"
            ),
        ])
    func resourceUnderExplicitBase(base: String, path: String, expected: String) throws {
        let baseURL = try #require(URL(string: base))
        #expect(URLBuilding.resourceURL(base: baseURL, path: path)?.absoluteString == expected)
    }

    @Test(
        "D10 an absolute URL is kept as given, and so is a relative one",
        arguments: ["http://foo.com/bar", "./foo", "https://foo.com/b?x=1&x=2#frag", "mailto:someone@foo.com"])
    func absoluteURLKept(string: String) {
        #expect(URLBuilding.absoluteURL(string)?.absoluteString == string)
    }

    @Test(
        "D10 an absolute URL loses only what is not sent: dot segments, and an http URL's empty path becomes /",
        arguments: [
            ("https://foo.com/a/../b?x=../y#../z", "https://foo.com/b?x=../y#../z"),
            ("https://foo.com/a/./b/..", "https://foo.com/a/"),
            ("https://foo.com/../../etc", "https://foo.com/etc"),
            ("https://foo.com/a/%2E%2E/b", "https://foo.com/a/%2E%2E/b"),
            ("https://foo.com", "https://foo.com/"),
            ("https://foo.com?q", "https://foo.com/?q"),
            ("foo:a/./b", "foo:a/b"),
            ("../foo", "../foo"),
            ("//foo.com/a/../b", "//foo.com/b"),
        ])
    func absoluteURLNormalised(string: String, expected: String) {
        #expect(URLBuilding.absoluteURL(string)?.absoluteString == expected)
    }

    @Test(
        "D4 D11 a URL that cannot be sent is refused: port out of range, a host no resolver accepts",
        arguments: [
            "http://127.0.0.1:70000/x", "https://foo.bar:65536/", "http://foo.bar:000000000000000000099999/",
            "http://a%20b/x", "http://a$b/x", "http://[v1.x]/", "ws://a;b/", "http://:80/", "http://u@/",
        ])
    func unusable(string: String) throws {
        #expect(URLBuilding.absoluteURL(string) == nil)
        #expect(URLBuilding.serviceBaseURL(string) == nil)
        let base = try #require(URLBuilding.serviceBaseURL("https://foo.bar/v1"))
        #expect(URLBuilding.relative(to: base, string) == nil)
    }

    @Test(
        "a URL at the edges of usable is kept",
        arguments: [
            "http://127.0.0.1:65535/x", "http://foo.bar:00080/", "http://127.0.0.1:/x", "http://[::1]:0/",
            "http://a_b~c-d.e/", "ftp://a$b/", "custom:x",
        ])
    func usable(string: String) {
        #expect(URLBuilding.absoluteURL(string)?.absoluteString == string)
    }

    @Test("D10 D11 a URL made by Foundation gets the rules of a string")
    func absoluteFoundationURL() {
        #expect(URLBuilding.absoluteURL(URL(string: "HTTPS://Foo.com/a/../b"))?.absoluteString == "https://foo.com/b")
        #expect(URLBuilding.absoluteURL(URL(string: "http://127.0.0.1:70000/x")) == nil)
        #expect(URLBuilding.absoluteURL(nil as URL?) == nil)
    }

    @Test("D1 a base URL's dot segments are removed before the trailing slash is added")
    func baseDotSegments() {
        #expect(URLBuilding.serviceBaseURL("https://foo.bar/a/../v1")?.absoluteString == "https://foo.bar/v1/")
        #expect(URLBuilding.serviceBaseURL("https://foo.bar/v1/..")?.absoluteString == "https://foo.bar/")
    }

    @Test("D5 a base URL with dot segments, made by Foundation, loses them before a path is appended")
    func foundationBaseDotSegments() throws {
        let base = try #require(URL(string: "https://foo.bar/a/../v1/"))
        #expect(URLBuilding.resourceURL(base: base, path: "x")?.absoluteString == "https://foo.bar/v1/x")
        #expect(URLBuilding.child(of: base, "x/y")?.absoluteString == "https://foo.bar/v1/x/y")
    }

    @Test(
        "D11 a nil, empty or unparseable absolute URL gives nil",
        arguments: [nil, "", "http://[URL syntax error]", "\0", "http://foo.com/a b", "http://foo.com/%zz"])
    func absoluteURLInvalid(string: String?) {
        #expect(URLBuilding.absoluteURL(string) == nil)
    }
}
