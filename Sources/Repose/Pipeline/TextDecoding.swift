import Foundation

/// Turns response bytes into a `String` according to the response's charset (rules F1–F3).
///
/// Charset names are looked up in our own table (see `TextDecoding+Charsets.swift`) rather than through
/// CoreFoundation's IANA lookup, which Linux Foundation lacks, so the same names work on every platform.
enum TextDecoding {
    /// Decodes `data` as text in the named charset.
    ///
    /// - Without a charset the bytes are read as ISO-8859-1, the HTTP/1.1 default for `text/*`: every byte is a
    ///   character, so this never fails (the UTF-8 bytes of "ý" read as "Ã½").
    /// - `utf-16` and `utf-32` follow a leading byte order mark and assume big-endian without one (RFC 2781), the
    ///   same on every platform. A leading byte order mark is never part of the text.
    /// - UTF-16 and UTF-32 input must be a whole number of code units (Foundation drops a stray byte on some
    ///   platforms).
    /// - EUC-JP decodes even where Foundation cannot (Linux), through `EUCJP`; Mac OS Roman uses our own table
    ///   (`MacRoman`) because Linux Foundation's is wrong.
    ///
    /// - Throws: a `RequestError` whose cause is `RequestError/Cause/InvalidTextEncoding` for a charset name we
    ///   do not know, or `RequestError/Cause/UndecodableText` for bytes that are invalid in the charset.
    static func decode(_ data: Data, charset: String?) throws -> String {
        guard let charset else { return latin1(data) }
        guard let encoding = encoding(forCharset: charset) else {
            throw RequestError.cannotParseResponse(cause: RequestError.Cause.InvalidTextEncoding(encodingName: charset))
        }
        guard let text = decode(data, encoding: encoding) else {
            throw RequestError.cannotParseResponse(cause: RequestError.Cause.UndecodableText(encoding: encoding))
        }
        return text
    }

    /// Decodes with a known encoding; `nil` when the bytes are invalid in it.
    static func decode(_ data: Data, encoding: String.Encoding) -> String? {
        switch encoding {
        case .isoLatin1:
            return latin1(data)
        case .utf8:
            return String(data: data, encoding: .utf8).map(withoutByteOrderMark)
        case .macOSRoman:
            return MacRoman.decode(data)
        case .utf16:
            guard data.count.isMultiple(of: 2) else { return nil }
            return decodeWithByteOrderMark(
                data, bigEndianMark: [0xFE, 0xFF], littleEndianMark: [0xFF, 0xFE],
                bigEndian: .utf16BigEndian, littleEndian: .utf16LittleEndian)
        case .utf32:
            guard data.count.isMultiple(of: 4) else { return nil }
            return decodeWithByteOrderMark(
                data, bigEndianMark: [0x00, 0x00, 0xFE, 0xFF], littleEndianMark: [0xFF, 0xFE, 0x00, 0x00],
                bigEndian: .utf32BigEndian, littleEndian: .utf32LittleEndian)
        case .utf16BigEndian, .utf16LittleEndian:
            guard data.count.isMultiple(of: 2) else { return nil }
            return String(data: data, encoding: encoding).map(withoutByteOrderMark)
        case .utf32BigEndian, .utf32LittleEndian:
            guard data.count.isMultiple(of: 4) else { return nil }
            return String(data: data, encoding: encoding).map(withoutByteOrderMark)
        case .japaneseEUC where !EUCJP.isNativelySupported:
            return EUCJP.decode(data)
        default:
            return String(data: data, encoding: encoding)
        }
    }

    /// ISO-8859-1 maps each byte to the code point of the same value; transcoding by hand cannot fail.
    static func latin1(_ data: Data) -> String {
        var utf8 = [UInt8]()
        utf8.reserveCapacity(data.count)
        for byte in data {
            if byte < 0x80 {
                utf8.append(byte)
            } else {
                utf8.append(0xC0 | (byte >> 6))
                utf8.append(0x80 | (byte & 0x3F))
            }
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    private static func decodeWithByteOrderMark(
        _ data: Data, bigEndianMark: [UInt8], littleEndianMark: [UInt8],
        bigEndian: String.Encoding, littleEndian: String.Encoding
    ) -> String? {
        if data.starts(with: littleEndianMark) {
            return String(data: data.dropFirst(littleEndianMark.count), encoding: littleEndian)
        }
        if data.starts(with: bigEndianMark) {
            return String(data: data.dropFirst(bigEndianMark.count), encoding: bigEndian)
        }
        return String(data: data, encoding: bigEndian)
    }

    private static func withoutByteOrderMark(_ text: String) -> String {
        text.unicodeScalars.first == "\u{FEFF}" ? String(text.unicodeScalars.dropFirst()) : text
    }
}
