import Foundation

/// EUC-JP for platforms whose Foundation lacks it (Linux), built on the ISO-2022-JP converters they do have.
///
/// EUC-JP and ISO-2022-JP carry the same character sets (ASCII, JIS X 0208, JIS X 0212) and differ only in
/// framing: EUC-JP sets the high bit of each byte of a two-byte character (and prefixes JIS X 0212 characters
/// with `0x8F`), where ISO-2022-JP switches sets with escape sequences. Re-framing is exact, so the character
/// tables stay Foundation's. Half-width katakana (`0x8E` + one byte) have no ISO-2022-JP form and map directly to
/// U+FF61…U+FF9F.
enum EUCJP {
    /// Whether Foundation decodes EUC-JP by itself (true on Apple platforms).
    static let isNativelySupported = String(data: Data([0xC6, 0xFC]), encoding: .japaneseEUC) == "日"

    /// ISO-2022-JP-1, which adds JIS X 0212 to ISO-2022-JP; Foundation names it by its CoreFoundation number.
    private static let iso2022JP1 = String.Encoding(rawValue: 0x8000_0822)

    private static let escapeToJISX0208: [UInt8] = [0x1B, 0x24, 0x42]  // ESC $ B
    private static let escapeToJISX0212: [UInt8] = [0x1B, 0x24, 0x28, 0x44]  // ESC $ ( D
    private static let escapeToASCII: [UInt8] = [0x1B, 0x28, 0x42]  // ESC ( B

    /// Decodes EUC-JP bytes; `nil` if they are not valid EUC-JP or name a character the tables lack.
    static func decode(_ data: Data) -> String? {
        let bytes = [UInt8](data)
        var result = String.UnicodeScalarView()
        var run = [UInt8]()  // ISO-2022-JP-1 bytes of the current run of multi-byte characters
        var runSet: [UInt8] = []

        func flushRun() -> Bool {
            guard !run.isEmpty else { return true }
            guard let text = String(data: Data(run + escapeToASCII), encoding: iso2022JP1) else { return false }
            result.append(contentsOf: text.unicodeScalars)
            run.removeAll(keepingCapacity: true)
            runSet = []
            return true
        }
        func appendToRun(set: [UInt8], _ first: UInt8, _ second: UInt8) {
            if runSet != set {
                run.append(contentsOf: set)
                runSet = set
            }
            run.append(first & 0x7F)
            run.append(second & 0x7F)
        }

        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x00..<0x80:
                guard flushRun() else { return nil }
                result.append(Unicode.Scalar(byte))
                index += 1
            case 0x8E:  // half-width katakana
                guard index + 1 < bytes.count, (0xA1...0xDF).contains(bytes[index + 1]), flushRun(),
                    let scalar = Unicode.Scalar(0xFF61 + UInt32(bytes[index + 1] - 0xA1))
                else { return nil }
                result.append(scalar)
                index += 2
            case 0x8F:  // JIS X 0212
                guard index + 2 < bytes.count, isDoubleByteHalf(bytes[index + 1]), isDoubleByteHalf(bytes[index + 2])
                else { return nil }
                appendToRun(set: escapeToJISX0212, bytes[index + 1], bytes[index + 2])
                index += 3
            case 0xA1...0xFE:  // JIS X 0208
                guard index + 1 < bytes.count, isDoubleByteHalf(bytes[index + 1]) else { return nil }
                appendToRun(set: escapeToJISX0208, byte, bytes[index + 1])
                index += 2
            default:
                return nil
            }
        }
        guard flushRun() else { return nil }
        return String(result)
    }

    /// Encodes text as EUC-JP; `nil` if some character has no EUC-JP form.
    static func encode(_ text: String) -> Data? {
        var result = [UInt8]()
        var pending = ""  // characters to convert through ISO-2022-JP-1

        func flushPending() -> Bool {
            guard !pending.isEmpty else { return true }
            guard let framed = pending.data(using: iso2022JP1, allowLossyConversion: false),
                let unframed = reframeToEUC([UInt8](framed))
            else { return false }
            result.append(contentsOf: unframed)
            pending = ""
            return true
        }

        for scalar in text.unicodeScalars {
            if scalar.value < 0x80 {
                guard flushPending() else { return nil }
                result.append(UInt8(scalar.value))
            } else if (0xFF61...0xFF9F).contains(scalar.value) {
                guard flushPending() else { return nil }
                result.append(0x8E)
                result.append(UInt8(scalar.value - 0xFF61 + 0xA1))
            } else {
                pending.unicodeScalars.append(scalar)
            }
        }
        guard flushPending() else { return nil }
        return Data(result)
    }

    /// Turns ISO-2022-JP-1 bytes into EUC-JP; `nil` on a set or byte that EUC-JP cannot carry.
    private static func reframeToEUC(_ bytes: [UInt8]) -> [UInt8]? {
        enum CharacterSet { case ascii, jisX0208, jisX0212 }
        var set = CharacterSet.ascii
        var result = [UInt8]()
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x1B {
                let rest = bytes[index...]
                if rest.starts(with: escapeToJISX0208) || rest.starts(with: [0x1B, 0x24, 0x40]) {
                    set = .jisX0208
                    index += 3
                } else if rest.starts(with: escapeToJISX0212) {
                    set = .jisX0212
                    index += 4
                } else if rest.starts(with: escapeToASCII) {
                    set = .ascii
                    index += 3
                } else {
                    return nil  // e.g. JIS X 0201 Roman, whose ¥ and ‾ have no single-byte EUC-JP form
                }
                continue
            }
            switch set {
            case .ascii:
                result.append(bytes[index])
                index += 1
            case .jisX0208, .jisX0212:
                guard index + 1 < bytes.count else { return nil }
                if set == .jisX0212 { result.append(0x8F) }
                result.append(bytes[index] | 0x80)
                result.append(bytes[index + 1] | 0x80)
                index += 2
            }
        }
        return result
    }

    private static func isDoubleByteHalf(_ byte: UInt8) -> Bool {
        (0xA1...0xFE).contains(byte)
    }
}
