import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@Suite("Content type matcher")
struct ContentTypeMatcherTests {
    @Test(
        "F7 JSON patterns match JSON types with parameters and in any case",
        arguments: [
            "application/json", "application/hal+json", "text/json", "application/vnd.api+json",
            "application/json; charset=utf-8", "Application/JSON", " application/json ;charset=x", "foo/json",
            "application/problem+json; q=1",
        ])
    func jsonMatches(contentType: String) {
        #expect(ContentTypeMatcher.json.matches(contentType))
    }

    @Test(
        "F7 JSON patterns reject types that are not JSON",
        arguments: [
            "text/plain", "application/jsonx", "application/x-json", "application/json5", "json", "application/",
            "", ";application/json", "application/xml; note=json", "application/json+xml", "application/hal+json/x",
            "text/plain; type=application/json",
        ])
    func jsonRejects(contentType: String) {
        #expect(!ContentTypeMatcher.json.matches(contentType))
    }

    @Test(
        "F1 text/* matches text types only",
        arguments: [
            ("text/plain", true), ("text/html; charset=utf-8", true), ("TEXT/CSV", true), ("text/", true),
            ("application/text", false), ("text", false), ("texts/plain", false), ("text/plain/extra", false),
        ])
    func text(contentType: String, expected: Bool) {
        #expect(ContentTypeMatcher.text.matches(contentType) == expected)
    }

    @Test(
        "A star stays within one part of the type",
        arguments: [
            ("*/json", "application/hal+json", false),
            ("application/*+json", "application/hal+json", true),
            ("application/*+json", "application/json", false),
            ("application/*+json", "text/hal+json", false),
            ("*/*+json", "application/+json", true),
            ("image/*", "image/png", true),
            ("image/*", "image/svg+xml", false),
            ("*/*", "application/hal+json", false),
            ("*", "application/json", false),
            ("*/*", "a/b", true),
            ("application/vnd.*.v2+json", "application/vnd.github.v2+json", true),
            ("application/vnd.*.v2+json", "application/vnd.github.v3+json", false),
            ("*/x*y*z", "a/xaayaaz", true),
            ("*/x*y*z", "a/xaayaaza", false),
            ("application/json; charset=utf-8", "application/json", true),
            ("TEXT/*", "text/plain", true),
        ])
    func starSemantics(pattern: String, contentType: String, expected: Bool) {
        #expect(ContentTypeMatcher(pattern).matches(contentType) == expected)
    }

    @Test("A content type matches if any pattern matches")
    func anyPattern() {
        let matcher = ContentTypeMatcher(["image/png", "image/gif"])
        #expect(matcher.matches("image/gif"))
        #expect(!matcher.matches("image/jpeg"))
        #expect(!ContentTypeMatcher([]).matches("image/gif"))
    }

    @Test("Odd content types never crash and over-long ones never match")
    func oddInput() {
        let long = "application/" + String(repeating: "a", count: 300) + "+json"
        #expect(!ContentTypeMatcher.json.matches(long))
        #expect(!ContentTypeMatcher.json.matches(String(repeating: "/", count: 1000)))
        #expect(!ContentTypeMatcher.json.matches("\u{0}/json\u{0}"))
        #expect(!ContentTypeMatcher.json.matches("ápplication/jsön"))
        #expect(ContentTypeMatcher("*/*").matches("日本/語"))
        #expect(!ContentTypeMatcher(["", ";", "*"]).matches("a/b"))
        #expect(ContentTypeMatcher("").matches(" ; charset=x"))
        let many = ContentTypeMatcher(String(repeating: "*a", count: 40) + "/b")
        #expect(!many.matches(String(repeating: "a", count: 120) + "c/b"))
    }
}

@Suite("Content type matcher against a reference")
struct ContentTypeMatcherReferenceTests {
    @Test("The matcher agrees with the documented semantics on a thousand random patterns and types")
    func agreesWithReference() throws {
        var generator = SeededGenerator(seed: 7)
        let pieces = ["a", "B", "/", "+", "*", "json", "."]
        let characters: [Character] = ["a", "b", "/", "+", "A", "j"]
        for _ in 0..<1_500 {
            let pattern = (0..<Int.random(in: 0...5, using: &generator))
                .map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
            let regex = try NSRegularExpression(
                pattern: "^"
                    + pattern.map { $0 == "*" ? "[^/+;]*" : NSRegularExpression.escapedPattern(for: String($0)) }
                    .joined() + "$",
                options: .caseInsensitive)
            let matcher = ContentTypeMatcher(pattern)
            for _ in 0..<8 {
                let contentType = String(
                    (0..<Int.random(in: 0...7, using: &generator)).map { _ in
                        characters.randomElement(using: &generator) ?? "a"
                    })
                let range = NSRange(contentType.startIndex..., in: contentType)
                let expected = regex.firstMatch(in: contentType, range: range) != nil
                #expect(matcher.matches(contentType) == expected, "pattern \(pattern) against \(contentType)")
                #expect(matcher.matches(contentType + "; charset=x") == expected)
            }
        }
    }
}
