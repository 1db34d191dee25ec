import Foundation

/// Encodes request bodies for the `request(_:json:)`, `request(_:text:)` and `request(_:urlEncoded:)` helpers, and
/// names the content type each encoding implies (rules E15, E17, E18).
///
/// Every failure is a `RequestError` with a typed cause, thrown before anything is sent, so a request with a bad
/// body can fail immediately without network traffic.
enum RequestBody {
    /// The content type of `json(_:)` bodies.
    static let jsonContentType = "application/json"

    /// The content type of `urlEncoded(_:)` bodies.
    static let urlEncodedContentType = "application/x-www-form-urlencoded"

    /// The content type of `text(_:encoding:)` bodies: `text/plain; charset=<IANA name>`, e.g.
    /// `text/plain; charset=utf-8`; plain `text/plain` for an encoding that has no IANA name.
    static func textContentType(encoding: String.Encoding) -> String {
        guard let name = TextDecoding.charsetName(for: encoding) else { return "text/plain" }
        return "text/plain; charset=\(name)"
    }

    /// Compact JSON for a dictionary or array of JSON values (`String`, numbers, `Bool`, `NSNull`, and nested
    /// collections), with sorted keys so that equal values give equal bytes. `Encodable` models go through
    /// `json(_:encoder:)` instead: here they are not JSON, so that a stray `Date` or `Data` inside a dictionary
    /// fails loudly rather than being silently turned into a number or Base64.
    ///
    /// The value is validated before it is serialized: `JSONSerialization` raises an uncatchable exception on
    /// Apple platforms for invalid input (non-string keys, `NaN`, dates), so it only ever sees valid input.
    ///
    /// - Throws: a `RequestError` whose cause is `InvalidJSONObject` if the value is not JSON.
    static func json(_ value: Any) throws -> Data {
        guard JSONSerialization.isValidJSONObject(value),
            let data = try? JSONSerialization.data(
                withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes])
        else { throw invalidJSON() }
        return data
    }

    /// JSON for an `Encodable` value, written by the given encoder (its formatting and strategies apply). Whatever
    /// the encoder accepts is sent, including a top-level scalar such as `"text"`, which is valid JSON text.
    ///
    /// - Throws: the `RequestError` thrown by the value's own `encode(to:)` if it throws one; otherwise a
    ///   `RequestError` whose cause is `InvalidJSONObject` (for example for `Double.nan` with the default
    ///   non-conforming float strategy).
    static func json<T: Encodable>(_ value: T, encoder: JSONEncoder) throws -> Data {
        do {
            return try encoder.encode(value)
        } catch let error as RequestError {
            throw error
        } catch {
            throw invalidJSON()
        }
    }

    /// Text in the given encoding. A byte order mark is written only where the encoding itself calls for one
    /// (`.utf16` and `.utf32`, whose IANA names `utf-16` and `utf-32` expect it).
    ///
    /// - Throws: a `RequestError` whose cause is `UnencodableText` if some character has no form in the encoding;
    ///   nothing is ever replaced or dropped.
    static func text(_ text: String, encoding: String.Encoding) throws -> Data {
        let encoded: Data?
        switch encoding {
        case .macOSRoman:
            encoded = MacRoman.encode(text).map { Data($0) }
        case .japaneseEUC where !EUCJP.isNativelySupported:
            encoded = EUCJP.encode(text)
        case _ where hangsOnInvisibleCharacters(encoding) && text.unicodeScalars.contains(where: isInvisible):
            encoded = nil
        default:
            encoded = text.data(using: encoding, allowLossyConversion: false)
        }
        guard let encoded else {
            let cause = RequestError.Cause.UnencodableText(encoding: encoding, text: text)
            throw RequestError(userMessage: cause.displayMessage, cause: cause)
        }
        return encoded
    }

    /// Whether Foundation's converter for `encoding` never returns on invisible formatting characters. On Linux,
    /// swift-corelibs-foundation spins forever converting a zero-width space, a joiner, a variation selector or a
    /// byte-order mark to Shift_JIS, ISO-2022-JP or the Windows code pages (seen with Swift 6.3.1); legacy
    /// encodings have no form for those characters anyway, so such text is refused before the converter sees it.
    private static func hangsOnInvisibleCharacters(_ encoding: String.Encoding) -> Bool {
        #if canImport(FoundationNetworking)
        switch encoding {
        case .utf8, .utf16, .utf16BigEndian, .utf16LittleEndian, .utf32, .utf32BigEndian, .utf32LittleEndian, .ascii,
            .isoLatin1, .nonLossyASCII:
            return false
        default:
            return true
        }
        #else
        return false
        #endif
    }

    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isDefaultIgnorableCodePoint
    }

    /// An `application/x-www-form-urlencoded` body: `key=value` pairs joined by `&`, sorted so that equal
    /// parameters give equal bytes. The escaped pairs are sorted, by their bytes, as the original library does: `%`
    /// sorts before letters, so `℥` (`%E2%84%A5`) comes before `f`.
    ///
    /// Keys and values are UTF-8, and every byte except the RFC 3986 unreserved characters (`A-Z a-z 0-9 - . _ ~`)
    /// is percent-encoded. A space becomes `%20`, not `+`: every form decoder reads `%20` as a space, and a literal
    /// `+` becomes `%2B`, so no reader can confuse the two.
    ///
    /// - Throws: a `RequestError` whose cause is `NotURLEncodable` for a string that is not valid Unicode (an
    ///   unpaired UTF-16 surrogate, which only a bridged `NSString` can hold).
    static func urlEncoded(_ params: [String: String]) throws -> Data {
        var pairs: [[UInt8]] = []
        pairs.reserveCapacity(params.count)
        for (key, value) in params {
            var pair = [UInt8]()
            try appendPercentEncoded(key, to: &pair)
            pair.append(UInt8(ascii: "="))
            try appendPercentEncoded(value, to: &pair)
            pairs.append(pair)
        }
        pairs.sort { $0.lexicographicallyPrecedes($1) }
        return Data(pairs.joined(separator: [UInt8(ascii: "&")]))
    }

    private static func appendPercentEncoded(_ string: String, to bytes: inout [UInt8]) throws {
        let hexDigits = Array("0123456789ABCDEF".utf8)
        // Transcoding from the UTF-16 view, not reading the UTF-8 view, is what notices unpaired surrogates: the
        // UTF-8 view would silently replace them with U+FFFD.
        let failed = transcode(
            string.utf16.makeIterator(), from: UTF16.self, to: UTF8.self, stoppingOnError: true
        ) { byte in
            if isUnreserved(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        if failed {
            let cause = RequestError.Cause.NotURLEncodable(offendingString: string)
            throw RequestError(userMessage: cause.displayMessage, cause: cause)
        }
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    private static func invalidJSON() -> RequestError {
        let cause = RequestError.Cause.InvalidJSONObject()
        return RequestError(userMessage: cause.displayMessage, cause: cause)
    }
}
