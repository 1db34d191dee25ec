import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@Suite("URLBuilding: query parameters")
struct URLBuildingQueryTests {
    let resource: URL
    /// The resource with `foo=bar` and `zoogle=oogle`.
    let resourceWithParams: URL

    init() throws {
        let base = try #require(URLBuilding.serviceBaseURL("https://zingle.frotz/v1"))
        resource = try #require(URLBuilding.resourceURL(base: base, path: "/a/b"))
        resourceWithParams = URLBuilding.withParam(URLBuilding.withParam(resource, "foo", "bar"), "zoogle", "oogle")
    }

    @Test("C11 withParam adds a param")
    func addsParam() {
        #expect(URLBuilding.withParam(resource, "foo", "bar").absoluteString == "https://zingle.frotz/v1/a/b?foo=bar")
    }

    @Test("C11 withParam changes an existing param without touching the others")
    func changesParam() {
        #expect(
            URLBuilding.withParam(resourceWithParams, "zoogle", "zonk").absoluteString
                == "https://zingle.frotz/v1/a/b?foo=bar&zoogle=zonk")
    }

    @Test(
        "C12 withParam escapes names and values: = space + & # and Unicode",
        arguments: [
            ("fo=o", "ba r+baz", "https://zingle.frotz/v1/a/b?fo%3Do=ba%20r%2Bbaz"),
            ("a&b", "c#d", "https://zingle.frotz/v1/a/b?a%26b=c%23d"),
            ("ü", "%3F", "https://zingle.frotz/v1/a/b?%C3%BC=%253F"),
            ("path", "/x?y:z@w", "https://zingle.frotz/v1/a/b?path=/x?y:z@w"),
        ])
    func escaping(name: String, value: String, expected: String) {
        #expect(URLBuilding.withParam(resource, name, value).absoluteString == expected)
    }

    @Test("C12 an escaped name replaces the param it names")
    func escapedNameReplaces() {
        let once = URLBuilding.withParam(resource, "fo=o", "1")
        #expect(URLBuilding.withParam(once, "fo=o", "2").absoluteString == "https://zingle.frotz/v1/a/b?fo%3Do=2")
    }

    @Test("C13 withParam sorts all params by name, new and existing")
    func sortsAll() throws {
        #expect(
            URLBuilding.withParam(resourceWithParams, "plop", "blop").absoluteString
                == "https://zingle.frotz/v1/a/b?foo=bar&plop=blop&zoogle=oogle")
        let unsorted = try #require(URLBuilding.relative(to: resource, "?zeta=1&alpha=2&zeta=0"))
        #expect(
            URLBuilding.withParam(unsorted, "mid", "3").absoluteString
                == "https://zingle.frotz/v1/a/b?alpha=2&mid=3&zeta=1&zeta=0")
        #expect(
            URLBuilding.withParam(unsorted, "zeta", "9").absoluteString
                == "https://zingle.frotz/v1/a/b?alpha=2&zeta=9")
    }

    @Test(
        "C13 C17 names sort as Swift compares strings, before escaping, as the original does",
        arguments: [
            // Non-ASCII after ASCII letters, although its escape (%C3…) would sort first.
            (["é": "1", "f": "2"], "https://zingle.frotz/v1/a/b?f=2&%C3%A9=1"),
            // A decomposed é (e + U+0301) is the same name as é, so it sorts with it, after f, not with e.
            (["e\u{301}": "1", "f": "2"], "https://zingle.frotz/v1/a/b?f=2&e%CC%81=1"),
            (["e\u{301}x": "1", "ez": "2"], "https://zingle.frotz/v1/a/b?ez=2&e%CC%81x=1"),
            // Reserved characters sort by themselves, not by their escapes: " " before "+" before "=".
            (["a=b": "1", "a b": "2", "a+b": "3"], "https://zingle.frotz/v1/a/b?a%20b=2&a%2Bb=3&a%3Db=1"),
            // A name that prefixes another sorts first, although "=" would sort after "%".
            (["a": "1", "a b": "2"], "https://zingle.frotz/v1/a/b?a=1&a%20b=2"),
        ] as [([String: String], String)])
    func sortsDecodedNames(params: [String: String], expected: String) {
        let together = URLBuilding.withParams(resource, params)
        let oneByOne = params.reduce(resource) { URLBuilding.withParam($0, $1.key, $1.value) }
        #expect(together.absoluteString == expected)
        #expect(oneByOne.absoluteString == expected)
    }

    @Test("C13 a name written in another Unicode form replaces the param, as in the original")
    func canonicallyEquivalentNameReplaces() {
        let precomposed = URLBuilding.withParam(resource, "é", "1")
        #expect(
            URLBuilding.withParam(precomposed, "e\u{301}", "2").absoluteString
                == "https://zingle.frotz/v1/a/b?e%CC%81=2")
    }

    @Test("C15 an empty value gives a bare key")
    func emptyValue() {
        #expect(
            URLBuilding.withParam(resourceWithParams, "foo", "").absoluteString
                == "https://zingle.frotz/v1/a/b?foo&zoogle=oogle")
    }

    @Test("C16 a nil value removes the param")
    func nilRemoves() {
        #expect(
            URLBuilding.withParam(resourceWithParams, "foo", nil).absoluteString
                == "https://zingle.frotz/v1/a/b?zoogle=oogle")
    }

    @Test("C16 removing the last param removes the ? too")
    func removingLastDropsQuery() {
        let emptied = URLBuilding.withParam(URLBuilding.withParam(resourceWithParams, "foo", nil), "zoogle", nil)
        #expect(emptied.absoluteString == "https://zingle.frotz/v1/a/b")
        #expect(URLBuilding.withParam(resource, "absent", nil).absoluteString == "https://zingle.frotz/v1/a/b")
    }

    @Test(
        "C17 withParams equals sequential withParam: sorted, nil removes",
        arguments: [
            (["plop": "blop", "alpha": ""], "https://zingle.frotz/v1/a/b?alpha&foo=bar&plop=blop&zoogle=oogle"),
            (["foo": nil, "zoogle": "zonk", "b c": "d"], "https://zingle.frotz/v1/a/b?b%20c=d&zoogle=zonk"),
            (["foo": nil, "zoogle": nil], "https://zingle.frotz/v1/a/b"),
            ([:], "https://zingle.frotz/v1/a/b?foo=bar&zoogle=oogle"),
        ] as [([String: String?], String)])
    func withParams(params: [String: String?], expected: String) {
        let together = URLBuilding.withParams(resourceWithParams, params)
        let oneByOne = params.reduce(resourceWithParams) { URLBuilding.withParam($0, $1.key, $1.value) }
        #expect(together.absoluteString == expected)
        #expect(oneByOne.absoluteString == expected)
    }
}
