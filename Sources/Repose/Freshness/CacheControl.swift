/// The directives of a `Cache-Control` header, read the way HTTP defines them.
///
/// A header is a comma-separated list of directives, each a name with an optional value: `max-age=60`,
/// `no-cache="Set-Cookie, Authorization"`. Names are matched in any letter case; spaces and tabs around names,
/// `=` and commas are allowed; a value is a token or a quoted string, in which `\"` stands for a quote and a comma
/// does not end the directive. Empty list elements (`a,,b`) are skipped. Of a directive given twice, the first
/// counts. A directive that does not follow this grammar is left out and named in ``malformed``.
struct CacheControl: Equatable {
    /// Lowercased directive names with their values (unquoted, unescaped), `nil` for a directive without one.
    let directives: [String: String?]
    /// The parts of the header that are not directives, as written, for a log line.
    let malformed: [String]

    /// Parses `header`; a missing header has no directives.
    init(_ header: String?) {
        var parser = DirectiveParser(Array((header ?? "").utf8))
        var directives: [String: String?] = [:]
        var malformed: [String] = []
        while let element = parser.nextElement() {
            switch element {
            case .directive(let name, let value):
                if directives[name] == nil { directives[name] = value }  // the first occurrence wins
            case .malformed(let text):
                malformed.append(text)
            }
        }
        self.directives = directives
        self.malformed = malformed
    }

    /// Whether the response must not be kept in any cache (rule K6).
    var forbidsStoring: Bool { directives.keys.contains("no-store") }

    /// Whether the response must be revalidated before every use (rule R2): `no-cache` without a field list. The
    /// qualified form `no-cache="Set-Cookie"` only concerns the fields it names, so it does not count.
    var requiresRevalidation: Bool {
        guard let value = directives["no-cache"] else { return false }
        return value == nil
    }

    /// The `max-age` directive: absent, a number of seconds, or a value that is not one.
    var maxAge: DeltaSeconds {
        guard let value = directives["max-age"] else { return .absent }
        return DeltaSeconds(value ?? "")
    }
}

/// A `delta-seconds` value (`max-age`, `Age`, `Retry-After` in seconds): one or more ASCII digits, nothing else.
/// A value too large to represent is taken as 2,147,483,648 seconds (68 years), as HTTP prescribes.
enum DeltaSeconds: Equatable {
    case absent
    case seconds(Double)
    case invalid(String)

    init(_ text: String) {
        let bytes = Array(text.utf8)
        var start = 0
        var end = bytes.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        guard start < end, bytes[start..<end].allSatisfy({ (0x30...0x39).contains($0) }) else {
            self = .invalid(text)
            return
        }
        var value = 0
        for byte in bytes[start..<end] {
            value = value * 10 + Int(byte - 0x30)
            if value >= 2_147_483_648 {
                value = 2_147_483_648
                break
            }
        }
        self = .seconds(Double(value))
    }
}

/// Splits a `Cache-Control` value into directives, one list element at a time.
private struct DirectiveParser {
    enum Element {
        case directive(String, String?)
        case malformed(String)
    }

    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The next non-empty list element, or `nil` at the end.
    mutating func nextElement() -> Element? {
        while position < bytes.count, bytes[position] == comma || isSpace(bytes[position]) { position += 1 }
        guard position < bytes.count else { return nil }
        let start = position
        let name = token()
        skipSpaces()
        var value: String?
        var isValid = !name.isEmpty
        if isValid, position < bytes.count, bytes[position] == equals {
            position += 1
            skipSpaces()
            if position < bytes.count, bytes[position] == quote {
                value = quotedString()
                isValid = value != nil
            } else {
                let text = token()
                value = text
                isValid = !text.isEmpty
            }
            skipSpaces()
        }
        if isValid, position == bytes.count || bytes[position] == comma {
            return .directive(name.lowercased(), value)
        }
        skipToNextElement()
        return .malformed(String(decoding: bytes[start..<position], as: UTF8.self))
    }

    /// A run of token characters: letters, digits and ``!#$%&'*+-.^_`|~``.
    private mutating func token() -> String {
        let start = position
        while position < bytes.count, Self.isTokenCharacter(bytes[position]) { position += 1 }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    /// A quoted string's content with its escapes undone; `nil` when the closing quote is missing.
    private mutating func quotedString() -> String? {
        position += 1  // the opening quote
        var content: [UInt8] = []
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            if byte == quote { return String(decoding: content, as: UTF8.self) }
            if byte == backslash, position < bytes.count {
                content.append(bytes[position])
                position += 1
            } else {
                content.append(byte)
            }
        }
        return nil
    }

    /// Moves past the rest of a malformed element: to the next comma outside a quoted string, or the end.
    private mutating func skipToNextElement() {
        var inQuotes = false
        while position < bytes.count {
            let byte = bytes[position]
            if !inQuotes, byte == comma { return }
            if inQuotes, byte == backslash {
                position += 1
            } else if byte == quote {
                inQuotes.toggle()
            }
            position += 1
        }
        position = bytes.count
    }

    private mutating func skipSpaces() {
        while position < bytes.count, isSpace(bytes[position]) { position += 1 }
    }

    private func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x21, 0x23...0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E...0x60, 0x7C, 0x7E:
            return true
        default:
            return false
        }
    }

    private let comma = UInt8(ascii: ",")
    private let equals = UInt8(ascii: "=")
    private let quote = UInt8(ascii: "\"")
    private let backslash = UInt8(ascii: "\\")
}
