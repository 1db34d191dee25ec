import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@Suite("URLBuilding: child paths")
struct URLBuildingChildTests {
    let resource: URL

    init() throws {
        let base = try #require(URLBuilding.serviceBaseURL("https://zingle.frotz/v1"))
        resource = try #require(URLBuilding.resourceURL(base: base, path: "/a/b"))
    }

    @Test("the fixture resource is /a/b under the normalised base")
    func fixture() {
        #expect(resource.absoluteString == "https://zingle.frotz/v1/a/b")
    }

    @Test(
        "C2 child appends a subpath with one joining slash, leading slash optional",
        arguments: [
            ("", "https://zingle.frotz/v1/a/b/"),
            ("/", "https://zingle.frotz/v1/a/b/"),
            ("c", "https://zingle.frotz/v1/a/b/c"),
            ("/c", "https://zingle.frotz/v1/a/b/c"),
        ])
    func joiningSlash(subpath: String, expected: String) {
        #expect(URLBuilding.child(of: resource, subpath)?.absoluteString == expected)
    }

    @Test("C2 child of a path that ends in a slash adds no second slash")
    func childOfTrailingSlash() throws {
        let directory = try #require(URLBuilding.child(of: resource, ""))
        #expect(URLBuilding.child(of: directory, "c")?.absoluteString == "https://zingle.frotz/v1/a/b/c")
        #expect(URLBuilding.child(of: directory, "/c")?.absoluteString == "https://zingle.frotz/v1/a/b/c")
    }

    @Test(
        "C3 child keeps double slashes, schemes and dots that are not whole segments as literal path text",
        arguments: [
            ("...", "https://zingle.frotz/v1/a/b/..."),
            (".x/..y", "https://zingle.frotz/v1/a/b/.x/..y"),
            ("%2E%2E", "https://zingle.frotz/v1/a/b/%252E%252E"),
            ("//other.host/c", "https://zingle.frotz/v1/a/b//other.host/c"),
            ("ftp://other.host/c", "https://zingle.frotz/v1/a/b/ftp://other.host/c"),
        ])
    func literalPathText(subpath: String, expected: String) {
        #expect(URLBuilding.child(of: resource, subpath)?.absoluteString == expected)
    }

    /// Rule C3 once kept these as `%2E` / `%2E%2E`; W3 refuses them, since WHATWG parsers and many servers decode
    /// `%2E%2E` to `..` before removing dot segments.
    @Test(
        "W3 child refuses a dot segment anywhere in the subpath: no URL, literal or escaped",
        arguments: [".", "..", "./c", "./c/./d", "../c", "c/..", "c/./d", "/../c", "c/../../d"])
    func dotSegmentsRefused(subpath: String) {
        #expect(URLBuilding.child(of: resource, subpath) == nil)
    }

    @Test(
        "C4 child percent-escapes ?, space and Unicode as UTF-8",
        arguments: [
            ("?foo", "https://zingle.frotz/v1/a/b/%3Ffoo"),
            (" •⇶", "https://zingle.frotz/v1/a/b/%20%E2%80%A2%E2%87%B6"),
            ("%3F#x", "https://zingle.frotz/v1/a/b/%253F%23x"),
        ])
    func escaping(subpath: String, expected: String) {
        #expect(URLBuilding.child(of: resource, subpath)?.absoluteString == expected)
    }

    @Test("D8 child keeps the query, so base params reach every descendant")
    func childKeepsQuery() throws {
        let base = try #require(URLBuilding.serviceBaseURL("https://foo.bar/v1?key=k"))
        let foo = try #require(URLBuilding.resourceURL(base: base, path: "foo"))
        let viaChild = try #require(URLBuilding.child(of: foo, "bar"))
        #expect(viaChild.absoluteString == "https://foo.bar/v1/foo/bar?key=k")
        #expect(viaChild == URLBuilding.resourceURL(base: base, path: "foo/bar"))
    }
}
