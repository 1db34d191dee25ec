import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@Suite("Text decoding")
struct TextDecodingTests {
    @Test("F2 text without a charset is read as ISO-8859-1")
    func noCharsetIsLatin1() throws {
        #expect(try TextDecoding.decode(Data("ý".utf8), charset: nil) == "Ã½")
        #expect(try TextDecoding.decode(Data([0x41, 0xFF, 0x80]), charset: nil) == "A\u{FF}\u{80}")
    }

    @Test("F2 charset utf-8 is honoured")
    func utf8IsHonoured() throws {
        #expect(try TextDecoding.decode(Data("ý and 日本".utf8), charset: "utf-8") == "ý and 日本")
    }

    @Test(
        "F2 charset names ignore case, surrounding spaces and quotes",
        arguments: ["UTF-8", "Utf-8", "\"utf-8\"", " utf-8 ", "'UTF-8'", "\" UTF8 \""])
    func charsetNameSpelling(name: String) throws {
        #expect(try TextDecoding.decode(Data("ý".utf8), charset: name) == "ý")
    }

    @Test("F2 EUC-JP decodes on every platform")
    func eucJP() throws {
        let bytes: [UInt8] = [
            0xC6, 0xFC, 0xCB, 0xDC, 0xB8, 0xEC, 0xA4, 0xCE, 0xA5, 0xC6, 0xA5, 0xAD, 0xA5, 0xB9, 0xA5, 0xC8, 0x2C, 0x20,
            0x8E, 0xB6, 0x8E, 0xC0, 0x8E, 0xB6, 0x8E, 0xC5, 0x20, 0x61, 0x6E, 0x64, 0x20, 0x8F, 0xB0, 0xA1,
        ]
        #expect(try TextDecoding.decode(Data(bytes), charset: "EUC-JP") == "日本語のテキスト, ｶﾀｶﾅ and 丂")
    }

    @Test(
        "F2 IANA charsets decode from our own table",
        arguments: [
            ("windows-1252", [0x80, 0x20, 0x63, 0x61, 0x66, 0xE9], "€ café"),
            ("iso-8859-2", [0xA3, 0xF3, 0x64, 0xBC], "Łódź"),
            ("Shift_JIS", [0x82, 0xB1, 0x82, 0xF1, 0x82, 0xC9, 0x82, 0xBF, 0x82, 0xCD], "こんにちは"),
            ("iso-2022-jp", [0x1B, 0x24, 0x42, 0x46, 0x7C, 0x4B, 0x5C, 0x38, 0x6C, 0x1B, 0x28, 0x42], "日本語"),
            ("koi8-r", [0xF0, 0xD2, 0xC9, 0xD7, 0xC5, 0xD4], "Привет"),
            ("macintosh", [0x63, 0x61, 0x66, 0x8E, 0x20, 0xA5], "café •"),
            ("windows-1251", [0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2], "Привет"),
            ("gb18030", [0xD6, 0xD0, 0xCE, 0xC4], "中文"),
            ("euc-kr", [0xC7, 0xD1, 0xB1, 0xB9, 0xBE, 0xEE], "한국어"),
            ("iso-8859-15", [0xA4, 0x75, 0x72, 0x6F], "€uro"),
            ("windows-1250", [0xA3, 0xF3, 0x64, 0x9F], "Łódź"),
            ("windows-1253", [0xC5, 0xEB, 0xEB, 0xDC, 0xE4, 0xE1], "Ελλάδα"),
            ("windows-1254", [0xDD, 0x73, 0x74, 0x61, 0x6E, 0x62, 0x75, 0x6C], "İstanbul"),
            ("iso-8859-7", [0xC5, 0xEB, 0xEB, 0xDC, 0xE4, 0xE1], "Ελλάδα"),
            ("iso-8859-5", [0xBF, 0xE0, 0xD8, 0xD2, 0xD5, 0xE2], "Привет"),
            ("windows-1255", [0xF9, 0xEC, 0xE5, 0xED], "שלום"),
            ("windows-1256", [0xE3, 0xD1, 0xCD, 0xC8, 0xC7], "مرحبا"),
            ("iso-8859-9", [0xDD, 0x73, 0x74, 0x61, 0x6E, 0x62, 0x75, 0x6C], "İstanbul"),
        ] as [(String, [UInt8], String)])
    func ianaCharsets(charset: String, bytes: [UInt8], expected: String) throws {
        #expect(try TextDecoding.decode(Data(bytes), charset: charset) == expected)
    }

    @Test(
        "F2 every ASCII-compatible charset in the table works on this platform",
        arguments: TextDecoding.knownCharsetNames.filter { !$0.hasPrefix("utf-16") && !$0.hasPrefix("utf16") }
            .filter { !$0.hasPrefix("utf-32") && !$0.hasPrefix("utf32") })
    func everyTableEntryWorks(name: String) throws {
        #expect(try TextDecoding.decode(Data("Hello, world".utf8), charset: name) == "Hello, world")
    }

    @Test(
        "F2 utf-16 and utf-32 follow the byte order mark and assume big-endian without one",
        arguments: [
            ("utf-16", [0xFF, 0xFE, 0x41, 0x00, 0xFD, 0x00]),
            ("utf-16", [0xFE, 0xFF, 0x00, 0x41, 0x00, 0xFD]),
            ("utf-16", [0x00, 0x41, 0x00, 0xFD]),
            ("utf-16le", [0xFF, 0xFE, 0x41, 0x00, 0xFD, 0x00]),
            ("utf-16le", [0x41, 0x00, 0xFD, 0x00]),
            ("utf-16be", [0x00, 0x41, 0x00, 0xFD]),
            ("utf-32", [0xFF, 0xFE, 0x00, 0x00, 0x41, 0x00, 0x00, 0x00, 0xFD, 0x00, 0x00, 0x00]),
            ("utf-32", [0x00, 0x00, 0xFE, 0xFF, 0x00, 0x00, 0x00, 0x41, 0x00, 0x00, 0x00, 0xFD]),
            ("utf-32", [0x00, 0x00, 0x00, 0x41, 0x00, 0x00, 0x00, 0xFD]),
            ("utf-32le", [0x41, 0x00, 0x00, 0x00, 0xFD, 0x00, 0x00, 0x00]),
            ("utf-32be", [0x00, 0x00, 0x00, 0x41, 0x00, 0x00, 0x00, 0xFD]),
            ("utf-8", [0xEF, 0xBB, 0xBF, 0x41, 0xC3, 0xBD]),
        ] as [(String, [UInt8])])
    func byteOrderMarks(charset: String, bytes: [UInt8]) throws {
        #expect(try TextDecoding.decode(Data(bytes), charset: charset) == "Aý")
    }

    @Test("F5 a UTF-16 body made by Foundation reads back")
    func foundationUTF16() throws {
        let data = try #require("Server error: ☃".data(using: .utf16))
        #expect(try TextDecoding.decode(data, charset: "utf-16") == "Server error: ☃")
    }

    @Test("F3 an unknown charset fails with InvalidTextEncoding", arguments: ["x-klingon", "", "\"\"", "utf-9"])
    func unknownCharset(name: String) throws {
        let error = try #require(throws: RequestError.self) { try TextDecoding.decode(Data("hi".utf8), charset: name) }
        #expect(error.userMessage == "Cannot parse server response")
        let cause = try #require(error.cause as? RequestError.Cause.InvalidTextEncoding)
        #expect(cause.encodingName == name)
    }

    @Test(
        "F3 bytes invalid in the charset fail with UndecodableText",
        arguments: [
            ("utf-8", [0xC3, 0x28], String.Encoding.utf8),
            ("us-ascii", [0x41, 0x80], .ascii),
            ("utf-16", [0x00, 0x41, 0x00], .utf16),
            ("utf-16le", [0x00, 0xD8], .utf16LittleEndian),
            ("euc-jp", [0xC6], .japaneseEUC),
            ("euc-jp", [0x41, 0xC6, 0x41], .japaneseEUC),
        ] as [(String, [UInt8], String.Encoding)])
    func undecodableBytes(charset: String, bytes: [UInt8], encoding: String.Encoding) throws {
        let error = try #require(throws: RequestError.self) { try TextDecoding.decode(Data(bytes), charset: charset) }
        #expect(error.userMessage == "Cannot parse server response")
        let cause = try #require(error.cause as? RequestError.Cause.UndecodableText)
        #expect(cause.encoding == encoding)
    }

    @Test("Encodings map back to their preferred IANA names")
    func preferredNames() {
        #expect(TextDecoding.charsetName(for: .utf8) == "utf-8")
        #expect(TextDecoding.charsetName(for: .isoLatin1) == "iso-8859-1")
        #expect(TextDecoding.charsetName(for: .shiftJIS) == "shift_jis")
        #expect(TextDecoding.charsetName(for: .japaneseEUC) == "euc-jp")
        #expect(TextDecoding.charsetName(for: .nonLossyASCII) == nil)
        #expect(TextDecoding.encoding(forCharset: "LATIN1") == .isoLatin1)
        #expect(TextDecoding.encoding(forCharset: "nope") == nil)
    }

    @Test("Odd bytes in every known charset never crash", arguments: TextDecoding.knownCharsetNames + ["bogus"])
    func oddBytesNeverCrash(name: String) throws {
        var generator = SeededGenerator(seed: 42)
        for length in [0, 1, 2, 3, 5, 64, 257] {
            let data = Data((0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
            _ = try? TextDecoding.decode(data, charset: name)
        }
        #expect(try TextDecoding.decode(Data(), charset: name == "bogus" ? "utf-8" : name) == "")
    }
}
