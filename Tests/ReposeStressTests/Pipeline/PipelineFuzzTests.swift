import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// A model for fuzzing the `Decodable` path: small enough that random JSON sometimes decodes.
private struct FuzzModel: Decodable {
    let id: Int
    let name: String?
    let tags: [String]?
}

/// Random responses through the standard pipeline, driven directly through `ResponseProcessor` (what every load
/// runs before its hop to the main actor), so that 10,000 cases take well under a second in release.
@MainActor
@Suite("PipelineFuzz: random responses through the standard and model pipelines", .checksLifetimes)
struct PipelineFuzzTests {
    /// What a content type promises, so each case knows what a success must hold.
    enum Kind: CaseIterable {
        case json, text, binary, unknown
    }

    static let cases = 10_000

    let harness = Harness()
    var service: Service { harness.service }

    func processor(for path: String) -> ResponseProcessor {
        ResponseProcessor(pipeline: service.resource(path).configuration.pipeline, now: { 1000 })
    }

    @Test("F1-F10 random bytes under every standard content type end as content of the promised kind or an error")
    func standardPipeline() async {
        let processor = processor(for: "/fuzz")
        await FuzzRun().check("standard pipeline", cases: Self.cases, filter: "PipelineFuzz") { random in
            let (contentType, kind) = Self.contentType(&random)
            let response = Self.response(&random, contentType: contentType)
            return Self.problem(with: processor.process(.success(response)), for: response, kind: kind) { content in
                switch kind {
                case .json: content is [String: Any] || content is [Any]
                case .text: content is String
                case .binary: content as? Data == response.body
                case .unknown: content is Data || content is String || content is [String: Any] || content is [Any]
                }
            }
        }
    }

    @Test("F8 F17 random bytes decoded into a Decodable model end as the model or an error")
    func modelPipeline() async {
        service.configureTransformer("/model", decoding: FuzzModel.self)
        let processor = processor(for: "/model")
        await FuzzRun().check("model pipeline", cases: Self.cases, filter: "PipelineFuzz") { random in
            let (contentType, _) = Self.contentType(&random)
            let response = Self.response(&random, contentType: contentType)
            return Self.problem(with: processor.process(.success(response)), for: response, kind: .unknown) {
                $0 is FuzzModel
            }
        }
    }

    /// What is wrong with `outcome` for `response`, or `nil` if it is one of the outcomes allowed.
    static func problem(
        with outcome: ResponseProcessor.Outcome, for response: NetworkResponse, kind: Kind,
        successHolds: (Any) -> Bool
    ) -> String? {
        let described = "status \(response.statusCode), \(response.headers), \(response.body.count) bytes"
        switch outcome {
        case .notModified:
            return response.statusCode == 304 ? nil : "not modified for \(described)"
        case .response(.success(let entity)):
            if response.statusCode >= 400 { return "success for \(described)" }
            if let data = entity.content as? Data, data.isEmpty, response.body.isEmpty { return nil }
            return successHolds(entity.content) ? nil : "\(type(of: entity.content)) for \(kind) in \(described)"
        case .response(.failure(let error)):
            if error.userMessage.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                return "an empty userMessage for \(described)"
            }
            if response.statusCode >= 400 {
                // F10: an error body that fails to parse keeps the HTTP error.
                return error.httpStatusCode == response.statusCode ? nil : "status lost: \(error) for \(described)"
            }
            if error.cause == nil || error.userMessage != RequestError.cannotParseResponseMessage {
                return "\(error) for \(described)"
            }
            return nil
        }
    }

    // MARK: Generators

    static let charsets =
        TextDecoding.knownCharsetNames + ["x-klingon", "", "\"\"", "utf-9", "UTF-8", " \"utf-16le\" ", "ébcdic"]

    /// A content type: one of the standard kinds, with an assorted charset, or now and then random text.
    static func contentType(_ random: inout FuzzCase) -> (String?, Kind) {
        let charset = random.oneIn(3) ? "" : "; charset=" + random.pick(charsets)
        switch random.int(in: 0...9) {
        case 0...2:
            return ("text/" + random.pick(["plain", "html", "csv"]) + charset, .text)
        case 3...5:
            let type = random.pick(["application/json", "application/hal+json", "application/vnd.x+json", "foo/json"])
            return (type + charset, .json)
        case 6:
            return ("text/json" + charset, .json)
        case 7:
            return (random.pick([nil, "application/octet-stream", "image/png", "application/x-unknown"]), .binary)
        default:
            let text = String(decoding: random.bytes(count: random.int(in: 0...40)), as: UTF8.self)
            return (
                random.pick([text, "text/" + text, "application/" + text + "+json", text + "; charset=utf-8"]),
                .unknown
            )
        }
    }

    /// A response with a mostly successful status and a body from one of the body generators.
    static func response(_ random: inout FuzzCase, contentType: String?) -> NetworkResponse {
        let status = random.oneIn(4) ? random.pick([201, 204, 304, 400, 404, 422, 500, 503]) : 200
        var headers = ["X-Case": "fuzz"]
        headers["Content-Type"] = contentType
        return NetworkResponse(statusCode: status, headers: headers, body: Data(body(&random)))
    }

    static func body(_ random: inout FuzzCase) -> [UInt8] {
        switch random.int(in: 0...9) {
        case 0...2: return random.bytes(count: random.oneIn(20) ? random.int(in: 0...4096) : random.int(in: 0...64))
        case 3...5: return jsonSoup(&random)
        case 6...7: return mutated(validJSON(&random), &random)
        case 8: return deeplyNested(&random)
        default: return encodedText(&random)
        }
    }

    static let jsonTokens = [
        "{", "}", "[", "]", ":", ",", "\"id\"", "\"name\"", "\"tags\"", "\"a\"", "1", "-0.5e3", "1e999", "true",
        "null", "\"\\u00e9\"", "\"\\ud800\"", " ", "\n", "\"", "\\", "0x1F", "NaN", "\u{FEFF}",
    ]

    /// Random JSON tokens: close enough to JSON to get deep into the parser.
    static func jsonSoup(_ random: inout FuzzCase) -> [UInt8] {
        let count = random.int(in: 0...80)
        return Array((0..<count).map { _ in random.pick(jsonTokens) }.joined().utf8)
    }

    static func validJSON(_ random: inout FuzzCase) -> [UInt8] {
        let tags = (0..<random.int(in: 0...3)).map { "\"t\($0)\"" }.joined(separator: ",")
        let object = #"{"id": \#(random.int(in: -5...5)), "name": "ý\#(random.int(in: 0...9))", "tags": [\#(tags)]}"#
        return Array((random.oneIn(3) ? "[\(object)]" : object).utf8)
    }

    /// Valid JSON with a few bytes flipped, dropped or inserted, or cut short.
    static func mutated(_ bytes: [UInt8], _ random: inout FuzzCase) -> [UInt8] {
        var bytes = bytes
        for _ in 0..<random.int(in: 0...3) where !bytes.isEmpty {
            let index = random.int(in: 0...(bytes.count - 1))
            switch random.int(in: 0...3) {
            case 0: bytes[index] ^= UInt8(1) << UInt8(random.int(in: 0...7))
            case 1: bytes.remove(at: index)
            case 2: bytes.insert(random.pick(Array("{}[]\":,\\\u{0}".utf8) + [0xFF, 0xC3]), at: index)
            default: bytes.removeLast(bytes.count - index)
            }
        }
        return bytes
    }

    /// Arrays and objects nested up to 20,000 deep, closed or not.
    static func deeplyNested(_ random: inout FuzzCase) -> [UInt8] {
        let depth = random.int(in: 1...20_000)
        let open = random.pick(["[", "{\"a\":", "[{\"a\":"])
        let close = open == "[" ? "]" : open == "{\"a\":" ? "}" : "}]"
        let closed = random.oneIn(2) ? depth : random.int(in: 0...depth)
        return Array(
            (String(repeating: open, count: depth) + "1" + String(repeating: close, count: closed)).utf8)
    }

    /// Text, often with characters outside ASCII, in an encoding that may not be the one declared. Never lossy:
    /// no Shift_JIS either: Linux Foundation traps or spins on some encodings of it (`"a\u{FEFF}"`).
    static func encodedText(_ random: inout FuzzCase) -> [UInt8] {
        let pieces = ["a", "ý", "日本", "😀", "\u{0}", "\u{FEFF}", "\"", "{", "\r\n"]
        let text = (0..<random.int(in: 0...20)).map { _ in random.pick(pieces) }.joined()
        let encoding = random.pick([String.Encoding.utf8, .utf16, .utf16LittleEndian, .utf32, .isoLatin1])
        return Array(text.data(using: encoding, allowLossyConversion: false) ?? Data(text.utf8))
    }
}
