import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@Suite("URLBuilding: relative references")
struct URLBuildingRelativeTests {
    let resource: URL

    init() throws {
        let base = try #require(URLBuilding.serviceBaseURL("https://zingle.frotz/v1"))
        resource = try #require(URLBuilding.resourceURL(base: base, path: "/a/b"))
    }

    @Test(
        "C6 relative resolves ./ and ../ like an href, bare paths as if preceded by ./",
        arguments: [
            ("c", "https://zingle.frotz/v1/a/c"),
            ("./c", "https://zingle.frotz/v1/a/c"),
            ("././c", "https://zingle.frotz/v1/a/c"),
            ("./c/./d", "https://zingle.frotz/v1/a/c/d"),
            ("../c", "https://zingle.frotz/v1/c"),
            ("../../c", "https://zingle.frotz/c"),
            ("../c/../d", "https://zingle.frotz/v1/d"),
            ("../../../../c", "https://zingle.frotz/c"),
        ])
    func dotSegments(href: String, expected: String) {
        #expect(URLBuilding.relative(to: resource, href)?.absoluteString == expected)
    }

    @Test(
        "C7 relative resolves / against the host root and // or a scheme as another URL",
        arguments: [
            ("/c", "https://zingle.frotz/c"),
            ("//other.host/c", "https://other.host/c"),
            ("ftp://other.host/c", "ftp://other.host/c"),
        ])
    func absoluteReferences(href: String, expected: String) {
        #expect(URLBuilding.relative(to: resource, href)?.absoluteString == expected)
    }

    @Test(
        "C8 relative takes a query as given: order kept, duplicates allowed",
        arguments: [
            ("?foo=1", "https://zingle.frotz/v1/a/b?foo=1"),
            ("c?foo=1", "https://zingle.frotz/v1/a/c?foo=1"),
            ("?foo=1&bar=2", "https://zingle.frotz/v1/a/b?foo=1&bar=2"),
            ("c?foo=1&bar=2", "https://zingle.frotz/v1/a/c?foo=1&bar=2"),
            ("?foo=1&foo=2", "https://zingle.frotz/v1/a/b?foo=1&foo=2"),
        ])
    func query(href: String, expected: String) {
        #expect(URLBuilding.relative(to: resource, href)?.absoluteString == expected)
    }

    @Test(
        "C8 relative replaces or removes an existing query",
        arguments: [
            ("?baz=fez", "https://zingle.frotz/v1/a/b?baz=fez"),
            ("./c", "https://zingle.frotz/v1/a/c"),
        ])
    func replacesQuery(href: String, expected: String) {
        let withQuery = URLBuilding.withParam(resource, "foo", "bar")
        #expect(URLBuilding.relative(to: withQuery, href)?.absoluteString == expected)
    }

    @Test(
        "C8 relative gives nil for an href that is not a valid URL reference",
        arguments: ["http://[bad", "c d", "%zz", "1http://x", ":c", "http://host:80x/", "ü"])
    func invalidHref(href: String) {
        #expect(URLBuilding.relative(to: resource, href) == nil)
    }

    @Test("D12 every route to the same resource gives the same URL string")
    func sameURLWhateverTheRoute() throws {
        let base = try #require(URLBuilding.serviceBaseURL("https://zingle.frotz"))
        let foo = try #require(URLBuilding.resourceURL(base: base, path: "/foo"))
        let fooOogle = try #require(URLBuilding.child(of: foo, "oogle"))
        let viaNavigation = URLBuilding.relative(
            to: try #require(URLBuilding.child(of: fooOogle, "baz")), "../bar")
        #expect(viaNavigation?.absoluteString == "https://zingle.frotz/foo/bar")
        #expect(viaNavigation == URLBuilding.resourceURL(base: base, path: "/foo/bar"))
    }

    @Test("C8 relative of a relative URL needs an absolute href")
    func relativeBase() throws {
        let base = try #require(URLBuilding.absoluteURL("./foo"))
        #expect(URLBuilding.relative(to: base, "c") == nil)
        #expect(URLBuilding.relative(to: base, "https://x.y/c")?.absoluteString == "https://x.y/c")
    }
}
