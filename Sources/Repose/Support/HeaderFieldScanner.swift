/// A cursor over the bytes of one header field value, with the pieces of HTTP's field grammar (RFC 9110 §5.6)
/// that `Cache-Control`, `Link`, media types and HTTP dates share: spaces, tokens, numbers, quoted strings with `\`
/// escapes, `; name=value` parameters, and the comma that ends a list element.
///
/// One reader for all of them keeps them agreeing on the hard parts: a comma or semicolon inside quotes ends
/// nothing, an escaped quote does not close a string, and an unclosed string stops at the end of the value. Every
/// step moves forward or stops, so a hostile header can neither crash nor loop. Delimiters are ASCII, so cutting
/// text at them never splits a UTF-8 sequence.
package struct HeaderFieldScanner {
    private let bytes: [UInt8]
    /// The offset of the next byte to read.
    private(set) var index = 0

    package init(_ value: String) { bytes = Array(value.utf8) }

    package var isAtEnd: Bool { index == bytes.count }

    /// Whether the next byte is `ascii`.
    func isAt(_ ascii: Unicode.Scalar) -> Bool { index < bytes.count && bytes[index] == UInt8(ascii: ascii) }

    /// Moves past `ascii` if it comes next; whether it did.
    package mutating func skip(_ ascii: Unicode.Scalar) -> Bool {
        guard isAt(ascii) else { return false }
        index += 1
        return true
    }

    package mutating func skip(while matches: (UInt8) -> Bool) {
        while index < bytes.count, matches(bytes[index]) { index += 1 }
    }

    /// Moves past spaces and tabs.
    package mutating func skipSpaces() { skip(while: Self.isSpace) }

    /// Moves past commas and spaces: the gaps between list elements, empty elements (`a,,b`) included.
    package mutating func skipEmptyElements() { skip { Self.isSpace($0) || $0 == Self.comma } }

    /// A run of token characters: letters, digits and ``!#$%&'*+-.^_`|~``.
    mutating func readToken() -> String { read(upTo: { !Self.isTokenCharacter($0) }) }

    /// A run of ASCII digits as a number, and how many digits there were. A number above `limit` is taken as
    /// `limit`, so that no run of digits can overflow; the default is the cap HTTP sets on `delta-seconds`.
    mutating func readNumber(limit: Int = 2_147_483_648) -> (value: Int, digits: Int) {
        let start = index
        var value = 0
        while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
            value = min(value * 10 + Int(bytes[index] - 0x30), limit)
            index += 1
        }
        return (value, index - start)
    }

    /// The quoted string that starts at the next byte, its escapes undone, and whether its closing quote came; an
    /// unclosed one runs to the end.
    mutating func readQuoted() -> (text: String, isClosed: Bool) {
        index += 1  // the opening quote
        var content: [UInt8] = []
        while index < bytes.count, bytes[index] != Self.quote {
            if bytes[index] == Self.backslash, index + 1 < bytes.count { index += 1 }
            content.append(bytes[index])
            index += 1
        }
        let isClosed = index < bytes.count
        index = min(index + 1, bytes.count)
        return (String(decoding: content, as: UTF8.self), isClosed)
    }

    /// Moves to the next comma outside a quoted string, or to the end: past the rest of an element that cannot be
    /// read, so that the next one still can.
    package mutating func skipToComma() {
        var inQuotes = false
        while index < bytes.count, inQuotes || bytes[index] != Self.comma {
            if inQuotes, bytes[index] == Self.backslash {
                index += 1
            } else if bytes[index] == Self.quote {
                inQuotes.toggle()
            }
            index += 1
        }
        index = min(index, bytes.count)
    }

    /// Reads `; name=value` parameters up to the comma that ends the element, or the end; anything else there
    /// skips to that comma. Calls `visit` with each name, lowercased, and its value: a quoted string, or unquoted
    /// text up to the next `;` or `,` without surrounding spaces, as RFC 8288 Appendix B.3 reads `rel=next last`.
    /// The value is `nil` when there is none (`; name`, `; name=`).
    package mutating func readParameters(_ visit: (_ name: String, _ value: String?) -> Void) {
        while true {
            skipSpaces()
            guard index < bytes.count, bytes[index] != Self.comma else { return }
            guard skip(";") else { return skipToComma() }
            skipSpaces()
            let name = read(upTo: { Self.isSpace($0) || $0 == Self.semicolon || $0 == Self.comma || $0 == Self.equals })
            skipSpaces()
            var value: String?
            if skip("=") {
                skipSpaces()
                if isAt("\"") {
                    value = readQuoted().text
                } else {
                    let text = read(upTo: { $0 == Self.semicolon || $0 == Self.comma })
                    value = text.isEmpty ? nil : text
                }
            }
            if !name.isEmpty { visit(name.lowercased(), value) }
        }
    }

    /// The text before the first byte that `ends` (or the end), without trailing spaces.
    package mutating func read(upTo ends: (UInt8) -> Bool) -> String {
        let start = index
        skip { !ends($0) }
        var end = index
        while end > start, Self.isSpace(bytes[end - 1]) { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// The bytes from `start` to the cursor, as text.
    func text(from start: Int) -> String { String(decoding: bytes[start..<index], as: UTF8.self) }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x21, 0x23...0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E...0x60, 0x7C, 0x7E:
            return true
        default:
            return false
        }
    }

    private static let comma = UInt8(ascii: ",")
    private static let semicolon = UInt8(ascii: ";")
    private static let equals = UInt8(ascii: "=")
    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")
}
