import Foundation

extension TextDecoding {
    /// The encoding for an IANA charset name such as `utf-8`, `"ISO-8859-1"` or `Shift_JIS`; `nil` if unknown.
    ///
    /// Names are case-insensitive, may be surrounded by whitespace and may be quoted, as they appear in a
    /// `Content-Type` parameter. Common aliases (`latin1`, `utf8`, `cp1252`, `sjis`, …) are accepted too.
    static func encoding(forCharset name: String) -> String.Encoding? {
        encodingsByName[normalizedCharsetName(name)]
    }

    /// The preferred IANA name of an encoding, for a `charset` parameter; `nil` for encodings without one.
    static func charsetName(for encoding: String.Encoding) -> String? {
        preferredNames[encoding.rawValue]
    }

    static func normalizedCharsetName(_ name: String) -> String {
        var trimmed = name.trimmingCharacters(in: .whitespaces)
        for quote in ["\"", "'"] where trimmed.count >= 2 && trimmed.hasPrefix(quote) && trimmed.hasSuffix(quote) {
            trimmed = String(trimmed.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
        }
        return trimmed.lowercased()
    }

    /// Encodings Foundation has no named constant for, by their CoreFoundation number. Foundation names them
    /// `0x8000_0000 | number` on Apple platforms and Linux alike.
    private static func coreFoundation(_ number: UInt) -> String.Encoding {
        String.Encoding(rawValue: 0x8000_0000 | number)
    }

    /// Each entry: the preferred IANA name first, then aliases.
    private static let table: [(names: [String], encoding: String.Encoding)] = [
        (["utf-8", "utf8", "unicode-1-1-utf-8"], .utf8),
        (["utf-16", "utf16"], .utf16),
        (["utf-16be", "utf16be"], .utf16BigEndian),
        (["utf-16le", "utf16le"], .utf16LittleEndian),
        (["utf-32", "utf32"], .utf32),
        (["utf-32be", "utf32be"], .utf32BigEndian),
        (["utf-32le", "utf32le"], .utf32LittleEndian),
        (["us-ascii", "ascii", "ansi_x3.4-1968", "iso646-us", "us"], .ascii),
        (["iso-8859-1", "iso_8859-1", "iso8859-1", "latin1", "l1", "iso-ir-100", "cp819"], .isoLatin1),
        (["iso-8859-2", "iso_8859-2", "iso8859-2", "latin2", "l2"], .isoLatin2),
        (["iso-8859-3", "iso_8859-3", "latin3"], coreFoundation(0x0203)),
        (["iso-8859-4", "iso_8859-4", "latin4"], coreFoundation(0x0204)),
        (["iso-8859-5", "iso_8859-5", "cyrillic"], coreFoundation(0x0205)),
        (["iso-8859-6", "iso_8859-6", "arabic"], coreFoundation(0x0206)),
        (["iso-8859-7", "iso_8859-7", "greek"], coreFoundation(0x0207)),
        (["iso-8859-8", "iso_8859-8", "hebrew"], coreFoundation(0x0208)),
        (["iso-8859-9", "iso_8859-9", "latin5"], coreFoundation(0x0209)),
        (["iso-8859-10", "latin6"], coreFoundation(0x020A)),
        (["iso-8859-13"], coreFoundation(0x020D)),
        (["iso-8859-15", "iso_8859-15", "latin-9"], coreFoundation(0x020F)),
        (["windows-1250", "cp1250"], .windowsCP1250),
        (["windows-1251", "cp1251"], .windowsCP1251),
        (["windows-1252", "cp1252"], .windowsCP1252),
        (["windows-1253", "cp1253"], .windowsCP1253),
        (["windows-1254", "cp1254"], .windowsCP1254),
        (["windows-1255", "cp1255"], coreFoundation(0x0505)),
        (["windows-1256", "cp1256"], coreFoundation(0x0506)),
        (["windows-1257", "cp1257"], coreFoundation(0x0507)),
        (["windows-1258", "cp1258"], coreFoundation(0x0508)),
        (["koi8-r"], coreFoundation(0x0A02)),
        (["koi8-u"], coreFoundation(0x0A08)),
        (["shift_jis", "shift-jis", "sjis", "ms_kanji", "csshiftjis", "windows-31j", "cp932"], .shiftJIS),
        (["euc-jp", "eucjp", "x-euc-jp"], .japaneseEUC),
        (["iso-2022-jp", "csiso2022jp"], .iso2022JP),
        (["euc-kr", "euckr"], coreFoundation(0x0940)),
        (["gb18030"], coreFoundation(0x0632)),
        (["macintosh", "mac", "x-mac-roman", "csmacintosh"], .macOSRoman),
    ]

    /// Every name in `table`, for tests and diagnostics.
    static let knownCharsetNames: [String] = table.flatMap(\.names)

    private static let encodingsByName: [String: String.Encoding] = Dictionary(
        table.flatMap { entry in entry.names.map { ($0, entry.encoding) } },
        uniquingKeysWith: { first, _ in first })

    private static let preferredNames: [UInt: String] = Dictionary(
        table.compactMap { entry in entry.names.first.map { (entry.encoding.rawValue, $0) } },
        uniquingKeysWith: { first, _ in first })
}
