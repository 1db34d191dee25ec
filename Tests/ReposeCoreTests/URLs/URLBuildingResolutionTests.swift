import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// The reference resolution examples of RFC 3986 section 5.4, against its base `http://a/b/c/d;p?q`.
@Suite("URLBuilding: RFC 3986 resolution examples")
struct URLBuildingResolutionTests {
    let base: URL

    init() throws {
        base = try #require(URL(string: "http://a/b/c/d;p?q"))
    }

    @Test(
        "C6 relative matches the RFC 3986 normal examples (an http URL's empty path is the / that is sent)",
        arguments: [
            ("g:h", "g:h"), ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"),
            ("/g", "http://a/g"), ("//g", "http://g/"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"),
            ("#s", "http://a/b/c/d;p?q#s"), ("g#s", "http://a/b/c/g#s"), ("g?y#s", "http://a/b/c/g?y#s"),
            (";x", "http://a/b/c/;x"), ("g;x", "http://a/b/c/g;x"), ("g;x?y#s", "http://a/b/c/g;x?y#s"),
            ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"), ("./", "http://a/b/c/"), ("..", "http://a/b/"),
            ("../", "http://a/b/"), ("../g", "http://a/b/g"), ("../..", "http://a/"), ("../../", "http://a/"),
            ("../../g", "http://a/g"),
        ])
    func normalExamples(href: String, expected: String) {
        #expect(URLBuilding.relative(to: base, href)?.absoluteString == expected)
    }

    @Test(
        "C6 relative matches the RFC 3986 abnormal examples",
        arguments: [
            ("../../../g", "http://a/g"), ("../../../../g", "http://a/g"), ("/./g", "http://a/g"),
            ("/../g", "http://a/g"), ("g.", "http://a/b/c/g."), (".g", "http://a/b/c/.g"), ("g..", "http://a/b/c/g.."),
            ("..g", "http://a/b/c/..g"), ("./../g", "http://a/b/g"), ("./g/.", "http://a/b/c/g/"),
            ("g/./h", "http://a/b/c/g/h"), ("g/../h", "http://a/b/c/h"), ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
            ("g;x=1/../y", "http://a/b/c/y"), ("g?y/./x", "http://a/b/c/g?y/./x"),
            ("g?y/../x", "http://a/b/c/g?y/../x"),
            ("g#s/./x", "http://a/b/c/g#s/./x"), ("g#s/../x", "http://a/b/c/g#s/../x"),
        ])
    func abnormalExamples(href: String, expected: String) {
        #expect(URLBuilding.relative(to: base, href)?.absoluteString == expected)
    }

    @Test("C7 an http href without a host is refused rather than kept as a hostless URL")
    func hostlessHTTP() {
        #expect(URLBuilding.relative(to: base, "http:g") == nil)
    }

    @Test(
        "C6 dot-segment removal follows RFC 3986 section 5.2.4",
        arguments: [
            ("/a/b/c/./../../g", "/a/g"), ("mid/content=5/../6", "mid/6"), ("", ""), ("/", "/"), ("/..", "/"),
            ("a/..", "/"), ("../a", "a"), ("//a/../b", "//b"),
        ])
    func removeDotSegments(path: String, expected: String) {
        #expect(URLBuilding.removingDotSegments(path) == expected)
    }
}
