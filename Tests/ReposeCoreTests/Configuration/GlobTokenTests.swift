import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@Suite("Glob tokens")
struct GlobTokenTests {
    @Test("Globs split into tokens, /**/ and runs of stars recognised")
    func compile() {
        #expect(
            GlobToken.compile("a/**/b*c**d?***") == [
                .literal(Array("a".utf8)), .slashAnythingSlash, .literal(Array("b".utf8)), .segmentRun,
                .literal(Array("c".utf8)), .anything, .literal(Array("d".utf8)), .oneCharacter, .anything,
            ])
        #expect(GlobToken.compile("") == [])
    }

    /// The documented semantics written as a regular expression, to check the matcher against.
    static func referenceRegex(for glob: String) throws -> NSRegularExpression {
        var regex = "^"
        var rest = Substring(glob)
        while let first = rest.first {
            if rest.hasPrefix("/**/") {
                regex += "/(?:.*/)?"
                rest = rest.dropFirst(4)
            } else if rest.hasPrefix("**") {
                regex += ".*"
                rest = rest.drop(while: { $0 == "*" })
            } else if first == "*" {
                regex += "[^/]*"
                rest = rest.dropFirst()
            } else if first == "?" {
                regex += "[^/]"
                rest = rest.dropFirst()
            } else {
                regex += NSRegularExpression.escapedPattern(for: String(first))
                rest = rest.dropFirst()
            }
        }
        return try NSRegularExpression(pattern: regex + "$", options: .dotMatchesLineSeparators)
    }

    @Test("D19 the matcher agrees with the documented semantics on a thousand random globs and paths")
    func agreesWithReference() throws {
        var generator = SeededGenerator(seed: 19)
        let pieces = ["a", "b", "/", "*", "**", "?", "/**/", "."]
        let characters: [Character] = ["a", "b", "/", "."]
        for _ in 0..<1_500 {
            let glob = (0..<Int.random(in: 0...6, using: &generator))
                .map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
            let reference = try Self.referenceRegex(for: glob)
            let tokens = GlobToken.compile(glob)
            for _ in 0..<8 {
                let text = String(
                    (0..<Int.random(in: 0...8, using: &generator)).map { _ in
                        characters.randomElement(using: &generator) ?? "a"
                    })
                let expected = reference.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
                #expect(
                    GlobToken.matches(tokens, Array(text.utf8)) == expected, "glob \(glob) against \(text)")
            }
        }
    }

    @Test("D19 ? consumes a whole multi-byte character")
    func multiByteCharacter() {
        #expect(GlobToken.matches(GlobToken.compile("x?y"), Array("xéy".utf8)))
        #expect(!GlobToken.matches(GlobToken.compile("x??y"), Array("xéy".utf8)))
        #expect(GlobToken.matches(GlobToken.compile("x*?y"), Array("x日本y".utf8)))
    }
}
