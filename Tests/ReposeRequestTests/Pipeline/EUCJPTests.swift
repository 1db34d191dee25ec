import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@Suite("EUC-JP")
struct EUCJPTests {
    let sample = "日本語のテキスト, ｶﾀｶﾅ and 丂"
    let sampleBytes: [UInt8] = [
        0xC6, 0xFC, 0xCB, 0xDC, 0xB8, 0xEC, 0xA4, 0xCE, 0xA5, 0xC6, 0xA5, 0xAD, 0xA5, 0xB9, 0xA5, 0xC8, 0x2C, 0x20,
        0x8E, 0xB6, 0x8E, 0xC0, 0x8E, 0xB6, 0x8E, 0xC5, 0x20, 0x61, 0x6E, 0x64, 0x20, 0x8F, 0xB0, 0xA1,
    ]

    @Test("F2 our own EUC-JP decoder reads JIS X 0208, JIS X 0212 and half-width katakana")
    func decodes() {
        #expect(EUCJP.decode(Data(sampleBytes)) == sample)
    }

    @Test("Our own EUC-JP encoder writes the same bytes the decoder reads")
    func encodes() {
        #expect(EUCJP.encode(sample).map { [UInt8]($0) } == sampleBytes)
        #expect(EUCJP.encode("") == Data())
    }

    @Test("Characters outside EUC-JP cannot be encoded")
    func unencodable() {
        #expect(EUCJP.encode("🙂") == nil)
        #expect(EUCJP.encode("日本🙂") == nil)
    }

    @Test(
        "Malformed EUC-JP is rejected, not guessed",
        arguments: [[0xC6], [0x8E], [0x8E, 0x41], [0x8E, 0xE0], [0x8F, 0xB0], [0x80], [0xA0, 0xA1], [0xC6, 0x41]]
            as [[UInt8]])
    func malformed(bytes: [UInt8]) {
        #expect(EUCJP.decode(Data(bytes)) == nil)
    }

    @Test("A code point that JIS X 0208 leaves empty is rejected")
    func emptyCodePoint() {
        #expect(EUCJP.decode(Data([0xA9, 0xA1])) == nil)
    }
}

@Suite("Mac OS Roman")
struct MacRomanTests {
    @Test("F2 macintosh decodes by our own table on every platform")
    func decodes() throws {
        #expect(
            try TextDecoding.decode(Data([0x63, 0x61, 0x66, 0x8E, 0x20, 0xA5, 0xDB]), charset: "macintosh") == "café •€"
        )
    }

    @Test("Every Mac OS Roman byte round-trips")
    func roundTrip() {
        let all = [UInt8](0...255)
        #expect(MacRoman.encode(MacRoman.decode(all)) == all)
        #expect(MacRoman.encode("日本") == nil)
    }
}
