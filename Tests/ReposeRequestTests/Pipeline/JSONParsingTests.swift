import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@Suite("JSON parsing")
struct JSONParsingTests {
    @Test("F7 a JSON object parses to a dictionary")
    func object() throws {
        let parsed = try JSONParsing.parse(Data(#"{"name": "Ý", "tags": [1, 2], "nothing": null}"#.utf8))
        let dictionary = try #require(parsed as? [String: Any])
        #expect(dictionary["name"] as? String == "Ý")
        #expect((dictionary["tags"] as? [Any])?.count == 2)
        #expect(dictionary["nothing"] is NSNull)
    }

    @Test("F7 a JSON array parses to an array")
    func array() throws {
        let parsed = try JSONParsing.parse(Data(#"[{"a": 1}, "b", 3]"#.utf8))
        let array = try #require(parsed as? [Any])
        #expect(array.count == 3)
        #expect(array[1] as? String == "b")
    }

    @Test(
        "F8 malformed JSON fails with Cannot parse server response and the parser's error as cause",
        arguments: ["{", "[1 2]", "{\"a\" 1}", "[1] trailing", "nope", "\u{FEFF}\u{FEFF}[]"])
    func malformed(text: String) throws {
        let error = try #require(throws: RequestError.self) { try JSONParsing.parse(Data(text.utf8)) }
        #expect(error.userMessage == "Cannot parse server response")
        let cause = try #require(error.cause)
        #expect(!(cause is RequestError))
        #expect(!(cause is RequestError.Cause.JSONResponseIsNotDictionaryOrArray))
        #expect((cause as NSError).domain == NSCocoaErrorDomain)
    }

    @Test("F8 an empty body is a parse failure, not a crash")
    func empty() throws {
        let error = try #require(throws: RequestError.self) { try JSONParsing.parse(Data()) }
        #expect(error.userMessage == "Cannot parse server response")
        #expect(error.cause != nil)
    }

    @Test(
        "F9 top-level scalars fail with JSONResponseIsNotDictionaryOrArray",
        arguments: ["17", "\"foo\"", "null", "true", " 3.5 "])
    func scalars(text: String) throws {
        let error = try #require(throws: RequestError.self) { try JSONParsing.parse(Data(text.utf8)) }
        #expect(error.userMessage == "Cannot parse server response")
        #expect(error.cause is RequestError.Cause.JSONResponseIsNotDictionaryOrArray)
    }

    @Test("F9 the cause names the scalar's type")
    func scalarType() throws {
        let error = try #require(throws: RequestError.self) { try JSONParsing.parse(Data("\"foo\"".utf8)) }
        let cause = try #require(error.cause as? RequestError.Cause.JSONResponseIsNotDictionaryOrArray)
        #expect(cause.actualType is String.Type || cause.actualType is NSString.Type)
    }

    @Test("JSON in UTF-16 with a byte order mark parses too")
    func utf16() throws {
        let data = try #require(#"{"a": "日本"}"#.data(using: .utf16))
        #expect((try JSONParsing.parse(data) as? [String: Any])?["a"] as? String == "日本")
    }

    @Test("Odd bodies never crash")
    func oddBodies() {
        var generator = SeededGenerator(seed: 7)
        for length in [1, 2, 17, 300, 4096] {
            let data = Data((0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
            #expect(throws: RequestError.self) { try JSONParsing.parse(data) }
        }
        let deep = Data((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8)
        _ = try? JSONParsing.parse(deep)
        _ = try? JSONParsing.parse(Data([0xFF, 0xFE, 0x00]))
        _ = try? JSONParsing.parse(Data(#"{"a": "\ud800"}"#.utf8))
        _ = try? JSONParsing.parse(Data("[1e999999, -0, 123456789012345678901234567890]".utf8))
    }
}
