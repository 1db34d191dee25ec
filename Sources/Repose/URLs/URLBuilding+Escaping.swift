import Foundation

// Byte classes of RFC 3986 section 2. Only ASCII bytes are ever allowed unescaped; every other byte of a
// string's UTF-8 encoding is percent-encoded (or, when validating, makes the string invalid).
extension URLBuilding {
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    static func isSubDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
            UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
            UInt8(ascii: "="):
            return true
        default:
            return false
        }
    }

    static func isHexDigit(_ byte: UInt8) -> Bool { hexValue(byte) != nil }

    static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// A byte userinfo may hold as is, and the body of an `IPvFuture` literal: unreserved, a sub-delimiter or `:`.
    static func isUserinfoByte(_ byte: UInt8) -> Bool {
        isUnreserved(byte) || isSubDelimiter(byte) || byte == UInt8(ascii: ":")
    }

    /// A byte a path may hold as is: `pchar` (without its percent-escapes) or `/`.
    static func isPathByte(_ byte: UInt8) -> Bool {
        isUserinfoByte(byte) || byte == UInt8(ascii: "@") || byte == UInt8(ascii: "/")
    }

    /// A byte a query or fragment may hold as is.
    static func isQueryByte(_ byte: UInt8) -> Bool {
        isPathByte(byte) || byte == UInt8(ascii: "?")
    }

    /// A byte a query parameter's name or value may hold as is: `&`, `=` and `+` would change its meaning.
    static func isParamByte(_ byte: UInt8) -> Bool {
        isQueryByte(byte) && byte != UInt8(ascii: "&") && byte != UInt8(ascii: "=") && byte != UInt8(ascii: "+")
    }

    /// `text` with every UTF-8 byte outside `allowed` written as `%XX` (uppercase hex); `%` itself is always
    /// escaped, so existing escapes are escaped again (`%3F` → `%253F`).
    static func percentEscaped(_ text: String, allowing allowed: (UInt8) -> Bool) -> String {
        var escaped: [UInt8] = []
        escaped.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if allowed(byte) && byte != UInt8(ascii: "%") {
                escaped.append(byte)
            } else {
                escaped.append(UInt8(ascii: "%"))
                escaped.append(hexDigits[Int(byte >> 4)])
                escaped.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }

    /// Whether every byte of `bytes` is in `allowed` or part of a well-formed `%XX` escape.
    static func isWellFormed(_ bytes: some Collection<UInt8>, allowing allowed: (UInt8) -> Bool) -> Bool {
        var pendingHexDigits = 0
        for byte in bytes {
            if pendingHexDigits > 0 {
                guard isHexDigit(byte) else { return false }
                pendingHexDigits -= 1
            } else if byte == UInt8(ascii: "%") {
                pendingHexDigits = 2
            } else if !allowed(byte) {
                return false
            }
        }
        return pendingHexDigits == 0
    }

    /// `text` with its `%XX` escapes decoded; malformed escapes stay as they are and invalid UTF-8 becomes U+FFFD.
    /// Used only to compare and sort query parameter names.
    static func percentDecoded(_ text: some StringProtocol) -> String {
        let bytes = Array(text.utf8)
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

// Dot segments: `.` and `..` written by the user are refused, never text and never navigation (see `URLBuilding`).
extension URLBuilding {
    /// Whether `path` has a segment that is exactly `.` or `..`.
    static func hasDotSegment(_ path: String) -> Bool {
        guard path.utf8.contains(UInt8(ascii: ".")) else { return false }  // the common case, without splitting
        // By bytes: as Characters, a "/" followed by a combining mark would not split.
        return path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).contains {
            isDotSegment($0)
        }
    }

    /// Whether `segment` is exactly `.` or `..`.
    static func isDotSegment(_ segment: some Collection<UInt8>) -> Bool {
        let dot = UInt8(ascii: ".")
        return segment.elementsEqual([dot]) || segment.elementsEqual([dot, dot])
    }
}
