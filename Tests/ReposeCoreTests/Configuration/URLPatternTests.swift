import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@Suite("URL patterns")
struct URLPatternTests {
    /// The base as the service normalises it (D1): `https://foo.bar/v1` becomes `https://foo.bar/v1/`.
    static let base = URL(string: "https://foo.bar/v1/")

    static func check(_ pattern: URLPattern, matches: [String], rejects: [String]) throws {
        for text in matches {
            let url = try #require(URL(string: text))
            #expect(pattern.matches(url), "\(pattern) should match \(text)")
        }
        for text in rejects {
            let url = try #require(URL(string: text))
            #expect(!pattern.matches(url), "\(pattern) should not match \(text)")
        }
    }

    @Test("D18 string patterns are relative to the base URL, leading slash optional, matched from start to end")
    func relativeToBase() throws {
        for glob in ["/foo", "foo"] {
            try Self.check(
                URLPattern(glob: glob, baseURL: Self.base),
                matches: ["https://foo.bar/v1/foo"],
                rejects: [
                    "https://foo.bar/v1/foo/bar", "https://foo.bar/v1/x/foo", "https://foo.bar/foo",
                    "http://foo.bar/v1/foo", "https://foo.bar/v1/foox", "https://evil.com/https://foo.bar/v1/foo",
                ])
        }
    }

    @Test("D18 a base URL without its trailing slash is normalised the way the service does")
    func unnormalisedBase() throws {
        try Self.check(
            URLPattern(glob: "foo/*", baseURL: URL(string: "https://foo.bar/v1?x=y")),
            matches: ["https://foo.bar/v1/foo/bar"], rejects: ["https://foo.bar/v1foo/bar"])
    }

    @Test("D18 patterns that start with a scheme ignore the base URL")
    func absolutePatterns() throws {
        try Self.check(
            URLPattern(glob: "https://other.com/api/*", baseURL: Self.base),
            matches: ["https://other.com/api/users"],
            rejects: ["https://foo.bar/v1/https://other.com/api/users", "http://other.com/api/users"])
        try Self.check(
            URLPattern(glob: "*://other.com/**", baseURL: Self.base),
            matches: ["http://other.com/a", "https://other.com/a/b"], rejects: ["https://another.com/a"])
    }

    @Test(
        "D19 * matches any run of characters within one segment, possibly empty",
        arguments: [
            (
                "/*", ["https://foo.bar/v1/foo", "https://foo.bar/v1/", "https://foo.bar/v1/foo.json"],
                ["https://foo.bar/v1/foo/bar", "https://foo.bar/v1"]
            ),
            (
                "/*/bar", ["https://foo.bar/v1/foo/bar", "https://foo.bar/v1//bar"],
                ["https://foo.bar/v1/foo/baz/bar", "https://foo.bar/v1/bar"]
            ),
            ("/foo*", ["https://foo.bar/v1/foo", "https://foo.bar/v1/foobar"], ["https://foo.bar/v1/foo/bar"]),
            ("/a*b*c", ["https://foo.bar/v1/abc", "https://foo.bar/v1/axxbyyc"], ["https://foo.bar/v1/ax/bc"]),
        ])
    func singleStar(glob: String, matches: [String], rejects: [String]) throws {
        try Self.check(URLPattern(glob: glob, baseURL: Self.base), matches: matches, rejects: rejects)
    }

    @Test(
        "D19 ** matches anything across segments and /**/ also matches a single slash",
        arguments: [
            (
                "/**", ["https://foo.bar/v1/", "https://foo.bar/v1/foo", "https://foo.bar/v1/foo/bar/baz"],
                ["https://foo.bar/v2/foo", "https://foo.bar/v1"]
            ),
            (
                "/foo/**/bar",
                [
                    "https://foo.bar/v1/foo/bar", "https://foo.bar/v1/foo/x/bar", "https://foo.bar/v1/foo/x/y/bar",
                    "https://foo.bar/v1/foo//bar",
                ],
                ["https://foo.bar/v1/foo/xbar", "https://foo.bar/v1/foobar", "https://foo.bar/v1/foo/bar/x"]
            ),
            ("**/bar", ["https://foo.bar/v1/bar", "https://foo.bar/v1/a/b/bar"], ["https://foo.bar/v1/a/barb"]),
            ("/foo**", ["https://foo.bar/v1/foo", "https://foo.bar/v1/foobar/baz"], ["https://foo.bar/v1/fo"]),
        ])
    func doubleStar(glob: String, matches: [String], rejects: [String]) throws {
        try Self.check(URLPattern(glob: glob, baseURL: Self.base), matches: matches, rejects: rejects)
    }

    @Test(
        "D19 ? matches exactly one character other than a slash",
        arguments: [
            (
                "/foo/?", ["https://foo.bar/v1/foo/a", "https://foo.bar/v1/foo/!"],
                ["https://foo.bar/v1/foo/", "https://foo.bar/v1/foo/ab", "https://foo.bar/v1/foo//"]
            ),
            ("/??x", ["https://foo.bar/v1/abx"], ["https://foo.bar/v1/ax", "https://foo.bar/v1/a/x"]),
        ])
    func questionMark(glob: String, matches: [String], rejects: [String]) throws {
        try Self.check(URLPattern(glob: glob, baseURL: Self.base), matches: matches, rejects: rejects)
    }

    @Test(
        "D19 :, !, @, $, ., +, ( and other regex metacharacters are literal",
        arguments: [
            ("/a:b!c@d$e", ["https://foo.bar/v1/a:b!c@d$e"], ["https://foo.bar/v1/a:b!c@d", "https://foo.bar/v1/ab"]),
            ("/x.json", ["https://foo.bar/v1/x.json"], ["https://foo.bar/v1/xajson"]),
            ("/x+", ["https://foo.bar/v1/x+"], ["https://foo.bar/v1/xx", "https://foo.bar/v1/x"]),
            ("/(x)", ["https://foo.bar/v1/(x)"], ["https://foo.bar/v1/x"]),
            ("/$x", ["https://foo.bar/v1/$x"], ["https://foo.bar/v1/x"]),
            ("/a=b&c,d;e'f~", ["https://foo.bar/v1/a=b&c,d;e'f~"], ["https://foo.bar/v1/a=b&c,d;e'f"]),
        ])
    func literals(glob: String, matches: [String], rejects: [String]) throws {
        try Self.check(URLPattern(glob: glob, baseURL: Self.base), matches: matches, rejects: rejects)
    }

    @Test("D20 wildcards work in the port: :* matches only URLs with an explicit port")
    func wildcardPort() throws {
        try Self.check(
            URLPattern(glob: "https://foo.com:*/**", baseURL: Self.base),
            matches: ["https://foo.com:8080/x", "https://foo.com:1/", "https://foo.com:443/a/b"],
            rejects: ["https://foo.com/x", "https://foo.com.evil.com:80/x", "https://bar.com:8080/x"])
    }

    @Test("D20 wildcards work in the host: any host on port 8080")
    func wildcardHost() throws {
        try Self.check(
            URLPattern(glob: "https://*:8080/**", baseURL: Self.base),
            matches: ["https://a.b:8080/x", "https://localhost:8080/", "https://foo.bar:8080/v1/deep/path"],
            rejects: ["https://a.b:8081/x", "https://a.b/x", "https://a.b/c:8080/x", "http://a.b:8080/x"])
    }

    @Test("D21 the query string (and fragment) is ignored for glob matching")
    func queryIgnored() throws {
        try Self.check(
            URLPattern(glob: "/foo", baseURL: Self.base),
            matches: ["https://foo.bar/v1/foo?x=1", "https://foo.bar/v1/foo?a=b&c=d", "https://foo.bar/v1/foo#top"],
            rejects: ["https://foo.bar/v1/bar?x=/foo"])
        try Self.check(
            URLPattern(glob: "/foo/*", baseURL: Self.base),
            matches: ["https://foo.bar/v1/foo/x?y=/z"], rejects: ["https://foo.bar/v1/foo?x=/a"])
    }

    @Test("D22 without a base URL string patterns are matched as absolute text")
    func noBase() throws {
        try Self.check(
            URLPattern(glob: "/foo", baseURL: nil), matches: [],
            rejects: ["https://foo.bar/foo", "https://foo.bar/v1/foo"])
        try Self.check(
            URLPattern(glob: "foo", baseURL: nil), matches: [], rejects: ["https://foo.bar/v1/foo"])
        try Self.check(
            URLPattern(glob: "**/foo", baseURL: nil),
            matches: ["https://foo.bar/v1/foo", "http://x/foo"], rejects: ["https://foo.bar/v1/foox"])
        try Self.check(
            URLPattern(glob: "https://foo.bar/*", baseURL: nil),
            matches: ["https://foo.bar/x"], rejects: ["https://foo.bar/x/y"])
    }

    @Test("D23 regex patterns match any substring of the full absolute URL, query included")
    func regexSubstring() throws {
        let regex = try NSRegularExpression(pattern: "/v1/fo+")
        try Self.check(
            URLPattern(regex: regex),
            matches: ["https://foo.bar/v1/fooo/x", "https://foo.bar/x?next=/v1/foo", "https://foo.bar/v1/fo"],
            rejects: ["https://foo.bar/v1/f", "https://foo.bar/V1/foo"])
        try Self.check(
            URLPattern(regex: NSRegularExpression(pattern: "^https://foo\\.bar/v1/[a-z]+$")),
            matches: ["https://foo.bar/v1/abc"], rejects: ["https://foo.bar/v1/abc/d", "https://foo.bar/v1/abc?x=1"])
    }

    @Test("D23 regex patterns respect their options")
    func regexOptions() throws {
        try Self.check(
            URLPattern(regex: NSRegularExpression(pattern: "/USERS/\\d+", options: .caseInsensitive)),
            matches: ["https://foo.bar/v1/users/42"], rejects: ["https://foo.bar/v1/users/me"])
    }

    @Test("An exact URL matches only itself, query included")
    func exact() throws {
        let url = try #require(URL(string: "https://foo.bar/v1/foo?x=1"))
        try Self.check(
            URLPattern(exactURL: url), matches: ["https://foo.bar/v1/foo?x=1"],
            rejects: ["https://foo.bar/v1/foo", "https://foo.bar/v1/foo?x=2", "https://foo.bar/v1/foo/?x=1"])
    }

    @Test("A predicate decides by itself")
    func predicate() throws {
        try Self.check(
            URLPattern(predicate: { $0.path.hasSuffix(".json") }),
            matches: ["https://foo.bar/v1/a.json", "http://x/y.json?z"], rejects: ["https://foo.bar/v1/a.xml"])
    }

    @Test("Odd patterns and URLs never crash")
    func oddInput() throws {
        let long = try #require(URL(string: "https://foo.bar/v1/" + String(repeating: "a/", count: 5_000) + "z"))
        #expect(!URLPattern(glob: String(repeating: "**a", count: 30) + "b", baseURL: Self.base).matches(long))
        #expect(URLPattern(glob: "**/z", baseURL: Self.base).matches(long))
        let url = try #require(URL(string: "https://foo.bar/v1/x"))
        for glob in ["", "/", "*", "**", "***", "?", "?*?**?", "/**/**/", "//", "://", "/日本/*", "%", "/**/"] {
            _ = URLPattern(glob: glob, baseURL: Self.base).matches(url)
            _ = URLPattern(glob: glob, baseURL: nil).matches(url)
        }
        #expect(URLPattern(glob: "", baseURL: Self.base).matches(try #require(URL(string: "https://foo.bar/v1/"))))
        #expect(URLPattern(glob: "***", baseURL: nil).matches(url))
        #expect(
            URLPattern(glob: "/%E6%97%A5/?", baseURL: Self.base).matches(
                try #require(URL(string: "https://foo.bar/v1/%E6%97%A5/x"))))
    }
}
