import Foundation
import ReposeTesting
import Testing

@testable import Repose
@testable import ReposeTestSupport

@Suite("Request bodies")
struct RequestBodyTests {
    struct Model: Encodable {
        var name: String
        var path: String
        var score: Double
    }

    struct Throwing: Encodable {
        func encode(to encoder: any Encoder) throws {
            throw RequestError(userMessage: "custom", cause: nil)
        }
    }

    @Test("E18 JSON bodies are compact with sorted keys and unescaped slashes")
    func compactJSON() throws {
        let data = try RequestBody.json(["b": [1, 2], "a": "x/y", "c": ["d": NSNull()]] as [String: Any])
        #expect(String(decoding: data, as: UTF8.self) == #"{"a":"x/y","b":[1,2],"c":{"d":null}}"#)
        #expect(String(decoding: try RequestBody.json([true, "ü"] as [Any]), as: UTF8.self) == #"[true,"ü"]"#)
        #expect(RequestBody.jsonContentType == "application/json")
    }

    enum NotJSON: String, CaseIterable, Sendable {
        case nan, infinity, date, integerKeys, bareString, bareNumber, data, nestedFloatNaN, object, none, model

        var value: Any {
            switch self {
            case .nan: ["a": Double.nan]
            case .infinity: ["a": Double.infinity]
            case .date: ["a": Date()]
            case .integerKeys: [1: 2]
            case .bareString: "bare string"
            case .bareNumber: 17
            case .data: ["a": Data()]
            case .nestedFloatNaN: ["a": [Float.nan]]
            case .object: NSObject()
            case .none: Int?.none as Any
            case .model: Model(name: "", path: "", score: 0)
            }
        }
    }

    @Test("E18 values that are not JSON fail with InvalidJSONObject instead of crashing", arguments: NotJSON.allCases)
    func invalidJSON(value: NotJSON) throws {
        let error = try #require(throws: RequestError.self) { try RequestBody.json(value.value) }
        #expect(error.cause is RequestError.Cause.InvalidJSONObject)
        #expect(!error.userMessage.isEmpty)
    }

    @Test("E18 Encodable values are written by the encoder they come with")
    func encodable() throws {
        let model = Model(name: "Zoë", path: "a/b", score: 1.5)
        let data = try RequestBody.json(model, encoder: JSONEncoder())
        let decoded = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(decoded["name"] as? String == "Zoë")
        #expect(decoded["score"] as? Double == 1.5)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let sorted = try RequestBody.json(model, encoder: encoder)
        #expect(String(decoding: sorted, as: UTF8.self) == #"{"name":"Zoë","path":"a/b","score":1.5}"#)
    }

    @Test("E18 an Encodable value that is not JSON fails with InvalidJSONObject")
    func encodableNaN() throws {
        let error = try #require(throws: RequestError.self) {
            try RequestBody.json(Model(name: "", path: "", score: .nan), encoder: JSONEncoder())
        }
        #expect(error.cause is RequestError.Cause.InvalidJSONObject)
    }

    @Test("A RequestError thrown while encoding passes through unchanged")
    func encodableThrowsRequestError() throws {
        let error = try #require(throws: RequestError.self) { try RequestBody.json(Throwing(), encoder: JSONEncoder()) }
        #expect(error.userMessage == "custom")
    }

    @Test(
        "E17 text is encoded in the chosen encoding",
        arguments: [
            ("ý", String.Encoding.utf8, [0xC3, 0xBD]),
            ("ý", .isoLatin1, [0xFD]),
            ("Łódź", .windowsCP1250, [0xA3, 0xF3, 0x64, 0x9F]),
            ("café •", .macOSRoman, [0x63, 0x61, 0x66, 0x8E, 0x20, 0xA5]),
            ("日本", .japaneseEUC, [0xC6, 0xFC, 0xCB, 0xDC]),
            ("こ", .shiftJIS, [0x82, 0xB1]),
            ("A", .utf16BigEndian, [0x00, 0x41]),
        ] as [(String, String.Encoding, [UInt8])])
    func text(text: String, encoding: String.Encoding, bytes: [UInt8]) throws {
        #expect([UInt8](try RequestBody.text(text, encoding: encoding)) == bytes)
    }

    @Test("E17 UTF-16 text reads back through the charset its content type names")
    func utf16RoundTrip() throws {
        let data = try RequestBody.text("Grüße ☃", encoding: .utf16)
        let contentType = RequestBody.textContentType(encoding: .utf16)
        #expect(contentType == "text/plain; charset=utf-16")
        #expect(try TextDecoding.decode(data, charset: MediaType.parameter("charset", in: contentType)) == "Grüße ☃")
    }

    @Test(
        "E17 text not representable in the encoding fails with UnencodableText",
        arguments: [
            ("Ö", String.Encoding.ascii), ("€", .isoLatin1), ("日本", .isoLatin2), ("🙂", .japaneseEUC),
            ("🙂", .shiftJIS), ("🙂", .macOSRoman), ("a", String.Encoding(rawValue: 0x7FFF_FFFF)),
        ])
    func unencodable(text: String, encoding: String.Encoding) throws {
        let error = try #require(throws: RequestError.self) { try RequestBody.text(text, encoding: encoding) }
        let cause = try #require(error.cause as? RequestError.Cause.UnencodableText)
        #expect(cause.encoding == encoding)
        #expect(cause.text == text)
        #expect(!error.userMessage.isEmpty)
    }

    @Test("E15 each body helper names the content type its bytes need")
    func contentTypes() {
        #expect(RequestBody.jsonContentType == "application/json")
        #expect(RequestBody.urlEncodedContentType == "application/x-www-form-urlencoded")
        #expect(RequestBody.textContentType(encoding: .utf8) == "text/plain; charset=utf-8")
        #expect(RequestBody.textContentType(encoding: .isoLatin1) == "text/plain; charset=iso-8859-1")
        #expect(RequestBody.textContentType(encoding: .japaneseEUC) == "text/plain; charset=euc-jp")
        #expect(RequestBody.textContentType(encoding: .nonLossyASCII) == "text/plain")
    }

    @Test("URL-encoded bodies sort the escaped pairs and escape everything but unreserved characters")
    func urlEncoded() throws {
        let data = try RequestBody.urlEncoded(["b": "x y+z", "a": "1&2=3", "ñ": "日本", "safe": "A-z.0_9~"])
        #expect(
            String(decoding: data, as: UTF8.self) == "%C3%B1=%E6%97%A5%E6%9C%AC&a=1%262%3D3&b=x%20y%2Bz&safe=A-z.0_9~")
        #expect(try RequestBody.urlEncoded([:]).isEmpty)
        #expect(String(decoding: try RequestBody.urlEncoded(["": ""]), as: UTF8.self) == "=")
        #expect(
            String(decoding: try RequestBody.urlEncoded(["k": "/?#[]@!$'()*,;%"]), as: UTF8.self)
                == "k=%2F%3F%23%5B%5D%40%21%24%27%28%29%2A%2C%3B%25")
    }

    @Test("A string that is not valid Unicode is either rejected with NotURLEncodable or already repaired")
    func unpairedSurrogate() throws {
        // Linux repairs the surrogate when bridging; Apple platforms can keep it in a lazily bridged NSString.
        let broken = NSString(characters: [0xD800], length: 1) as String
        do {
            let data = try RequestBody.urlEncoded(["k": broken])
            #expect(String(decoding: data, as: UTF8.self) == "k=%EF%BF%BD")
        } catch let error as RequestError {
            let cause = try #require(error.cause as? RequestError.Cause.NotURLEncodable)
            #expect(cause.offendingString == broken)
        }
    }

    @Test("Odd input never crashes")
    func oddInput() throws {
        let control = String(decoding: [0x00, 0x01, 0x7F], as: UTF8.self)
        #expect(
            String(decoding: try RequestBody.urlEncoded([control: control]), as: UTF8.self) == "%00%01%7F=%00%01%7F")
        _ = try? RequestBody.text(String(repeating: "\u{FFFF}\u{0}", count: 100), encoding: .shiftJIS)
        _ = try? RequestBody.text("", encoding: String.Encoding(rawValue: 0))
        _ = try? RequestBody.json([["a": [String: Any]()], [Any](), ["x": [1, [2, [3]]]]] as [Any])
        #expect(try RequestBody.text("", encoding: .utf8).isEmpty)
    }
}

@Suite("Text bodies with invisible characters")
struct InvisibleCharacterBodyTests {
    @Test(
        "E17 invisible formatting characters in text for a legacy encoding fail with UnencodableText, never hang",
        arguments: [
            ("a\u{FEFF}", String.Encoding.shiftJIS), ("❤\u{FE0F}", .shiftJIS), ("a\u{200B}b", .windowsCP1250),
            ("👩\u{200D}💻", .iso2022JP),
        ] as [(String, String.Encoding)])
    func invisibleCharacters(text: String, encoding: String.Encoding) throws {
        let error = try #require(throws: RequestError.self) { try RequestBody.text(text, encoding: encoding) }
        #expect(error.cause is RequestError.Cause.UnencodableText)
    }

    @Test("E17 the same characters are encoded as usual in UTF-8 and UTF-16")
    func unicodeEncodings() throws {
        #expect([UInt8](try RequestBody.text("❤\u{FE0F}", encoding: .utf8)) == [0xE2, 0x9D, 0xA4, 0xEF, 0xB8, 0x8F])
        #expect(try RequestBody.text("a\u{200B}", encoding: .utf16BigEndian).count == 4)
    }
}
