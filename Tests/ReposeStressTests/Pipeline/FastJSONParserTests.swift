#if canImport(FoundationNetworking)
import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// The Linux fast path for JSON bodies against swift-corelibs-foundation's `JSONSerialization`, which it must be
/// indistinguishable from wherever it does not give up.
///
/// Not on the main actor: the parsers need none, and 3,000 documents take 46 s under AddressSanitizer, long enough
/// to starve other tests' main-actor deliveries into timeouts.
@Suite("FastJSON: the Linux fast JSON parser against JSONSerialization")
struct FastJSONParserTests {
    static let documents = 3000

    @Test("F7 random JSON documents parse to the same values as with JSONSerialization, directly and in JSONParsing")
    func differential() async {
        var outsideSubset = 0
        await FuzzRun().check("fast JSON parser", cases: Self.documents, filter: "FastJSON") { random in
            let document = JSONDocumentGenerator.document(&random)
            random.note(document.text)
            if document.outsideSubset { outsideSubset += 1 }
            let data = Data(document.text.utf8)
            return Self.problem(with: data, mustParse: !document.outsideSubset) ?? Self.parseProblem(with: data)
        }
        // The generator must keep most documents inside the subset, or the comparison proves little.
        #expect(outsideSubset < Self.documents / 3)
    }

    @Test("F7 F8 F9 edge cases parse identically or are left to JSONSerialization", arguments: Self.edgeCases)
    func edgeCase(_ edgeCase: EdgeCase) {
        let data = Data(edgeCase.bytes)
        if let problem = Self.problem(with: data, mustParse: edgeCase.expectation == .parses) {
            Issue.record(Comment(rawValue: problem))
        }
        if edgeCase.expectation == .givesUp { #expect(FastJSONParser.parse(data) == nil) }
        if let problem = Self.parseProblem(with: data) { Issue.record(Comment(rawValue: problem)) }
    }

    /// What is wrong with the fast parser's result for `data`, or `nil` if it matches `JSONSerialization` (or gives
    /// up, where that is allowed).
    static func problem(with data: Data, mustParse: Bool) -> String? {
        let fast = FastJSONParser.parse(data)
        let reference = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        switch (fast, reference) {
        case (nil, _):
            return mustParse ? "the fast parser gave up" : nil
        case (let fast?, nil):
            return "the fast parser accepted what JSONSerialization rejects: \(fast)"
        case (let fast?, let reference?):
            return JSONValueComparison.difference(fast, reference)
        }
    }

    /// What is wrong with `JSONParsing.parse` for `data`, or `nil` if it behaves as it did before the fast path: the
    /// values of `JSONSerialization`, or the same `RequestError` with a cause of the same kind.
    static func parseProblem(with data: Data) -> String? {
        let outcome = Result { try JSONParsing.parse(data) }
        let reference = Result { try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) }
        switch (outcome, reference) {
        case (.success(let value), .success(let expected)):
            return JSONValueComparison.difference(value, expected)
        case (.success(let value), .failure):
            return "JSONParsing.parse accepted what JSONSerialization rejects: \(value)"
        case (.failure(let error), .success(let expected)):
            let isScalar = !(expected is [String: Any] || expected is [Any])
            let cause = (error as? RequestError)?.cause as? RequestError.Cause.JSONResponseIsNotDictionaryOrArray
            return isScalar && cause?.actualType == type(of: expected) ? nil : "\(error) for \(expected)"
        case (.failure(let error), .failure(let expected)):
            guard let error = error as? RequestError, error.userMessage == RequestError.cannotParseResponseMessage,
                let cause = error.cause
            else { return "\(error) is not a parse failure" }
            let (actual, wanted) = (cause as NSError, expected as NSError)
            let same = actual.domain == wanted.domain && actual.code == wanted.code
            return same ? nil : "cause \(actual) instead of \(wanted)"
        }
    }
}

extension FastJSONParserTests {
    struct EdgeCase: Sendable, CustomTestStringConvertible {
        enum Expectation: Sendable {
            /// In the subset: the fast parser must parse it.
            case parses
            /// Outside the subset, valid or not: the fast parser must give up.
            case givesUp
        }

        let bytes: [UInt8]
        let expectation: Expectation

        var testDescription: String { String(decoding: bytes, as: UTF8.self).debugDescription }

        init(_ text: String, _ expectation: Expectation) {
            self.init(bytes: Array(text.utf8), expectation)
        }

        init(bytes: [UInt8], _ expectation: Expectation) {
            self.bytes = bytes
            self.expectation = expectation
        }
    }

    nonisolated static let edgeCases: [EdgeCase] = [
        // Plain documents.
        .init(#"{"id":1,"name":"Ada"}"#, .parses),
        .init(" \t\r\n[ 1 , \"a\" , true , false , null , { } , [ ] ] \n", .parses),
        .init(#"{"a":1,"a":2}"#, .parses),
        .init("{\"é\":1,\"e\u{301}\":2}", .parses),
        .init(#"["\u0000", "\/", "\u00e9\u00E9", "\b\f\n\r\t\"\\", "\uFFFF", "\u0041"]"#, .parses),
        .init("[\"\u{7F}😀\"]", .parses),
        .init(#"["\uFEFF"]"#, .givesUp),
        .init("[\"\u{FEFF}a\"]", .givesUp),
        .init("[\"a\u{FEFF}\"]", .givesUp),
        .init("[\"\\n\u{FEFF}a\"]", .givesUp),
        // Numbers.
        .init("[0, -0, 1, -1, 123456789012345678, -123456789012345678, 2147483648]", .parses),
        .init("[1.5, 1e3, 1E+2, 0.1e1, 100.0, -0.0, 0e0, -0e0, 2.5e-324, -1e-400, 1e-5]", .parses),
        .init("[1.797693134862315e308, -4.9e-324, 0.300000000000004, 1.234567890123456e5]", .parses),
        .init("[12345678.12345678, 1.2345678901234E5]", .parses),
        .init("[0.30000000000000004]", .givesUp),
        .init("[9007199254740993.0]", .givesUp),
        .init("[1.2345678901234567e5]", .givesUp),
        .init("[1.23456789012345E5]", .givesUp),
        .init("[1.7976931348623157e308]", .givesUp),
        .init("[1234567890123456789]", .givesUp),
        .init("[9223372036854775807]", .givesUp),
        .init("[9223372036854775808]", .givesUp),
        .init("[-9223372036854775809]", .givesUp),
        .init("[" + String(repeating: "9", count: 60) + "]", .givesUp),
        .init("[0." + String(repeating: "1", count: 40) + "]", .givesUp),
        .init("[1e400]", .givesUp),
        .init("[-1e400]", .givesUp),
        .init("[01]", .givesUp),
        .init("[-01]", .givesUp),
        .init("[-0, 0, -5, 7]", .parses),
        .init("[1.]", .givesUp),
        .init("[.5]", .givesUp),
        .init("[+1]", .givesUp),
        .init("[-]", .givesUp),
        .init("[1e]", .givesUp),
        .init("[1e+]", .givesUp),
        .init("[0x1F]", .givesUp),
        .init("[NaN]", .givesUp),
        .init("[Infinity]", .givesUp),
        // Strings.
        .init("[\"a\tb\"]", .givesUp),
        .init("[\"a\nb\"]", .givesUp),
        .init(#"["\ud800"]"#, .givesUp),
        .init(#"["\udc00"]"#, .givesUp),
        .init(#"["\ud83d\ude00"]"#, .givesUp),
        .init(#"["\x"]"#, .givesUp),
        .init(#"["\u12"]"#, .givesUp),
        .init(#"["\u12G4"]"#, .givesUp),
        .init(#"["\'"]"#, .givesUp),
        .init(#"["abc"#, .givesUp),
        .init(#"["abc\"#, .givesUp),
        .init(bytes: Array(#"[""#.utf8) + [0xFF] + Array(#""]"#.utf8), .givesUp),
        .init(bytes: Array(#"[""#.utf8) + [0xC0, 0xAF] + Array(#""]"#.utf8), .givesUp),
        .init(bytes: Array(#"[""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""]"#.utf8), .givesUp),
        .init(bytes: Array(#"[""#.utf8) + [0xC3] + Array(#""]"#.utf8), .givesUp),
        // Structure.
        .init(#"{"a":1,}"#, .givesUp),
        .init("[1,]", .givesUp),
        .init("[1,,2]", .givesUp),
        .init("[,]", .givesUp),
        .init("{,}", .givesUp),
        .init(#"{"a" 1}"#, .givesUp),
        .init(#"{"a":}"#, .givesUp),
        .init("{a:1}", .givesUp),
        .init(#"{"a":1"#, .givesUp),
        .init("[1 2]", .givesUp),
        .init("[1] x", .givesUp),
        .init("[1][2]", .givesUp),
        .init("[1]\u{0}", .givesUp),
        .init("[tru]", .givesUp),
        .init("[nul]", .givesUp),
        .init("[True]", .givesUp),
        .init("\u{FEFF}[1]", .givesUp),
        .init("\u{0B}[1]", .givesUp),
        .init("[\u{0C}1]", .givesUp),
        .init("[\u{A0}1]", .givesUp),
        .init(String(repeating: "[", count: 64) + String(repeating: "]", count: 64), .parses),
        .init(String(repeating: "[", count: 65) + String(repeating: "]", count: 65), .givesUp),
        .init(String(repeating: #"{"a":"#, count: 65) + "1" + String(repeating: "}", count: 65), .givesUp),
        // Not an object or an array at the top, or nothing at all.
        .init("", .givesUp),
        .init("   ", .givesUp),
        .init("17", .givesUp),
        .init(#""foo""#, .givesUp),
        .init("null", .givesUp),
        .init("true", .givesUp),
        .init(" 3.5 ", .givesUp),
        .init("nope", .givesUp),
        .init(bytes: Array(#"{"a":"日本"}"#.data(using: .utf16) ?? Data()), .givesUp),
        .init(bytes: Array(#"{"a":"日本"}"#.data(using: .utf16LittleEndian) ?? Data()), .givesUp),
    ]
}
#endif
