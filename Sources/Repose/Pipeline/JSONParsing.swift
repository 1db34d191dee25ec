import Foundation

/// Parses JSON response bodies into `[String: Any]` or `[Any]` (rules F7–F9).
///
/// Which responses are JSON is decided by `ContentTypeMatcher.json` (`*/json`, `*/*+json`); this type only
/// parses. The transformer that calls it and the fast parser it tries first on Linux follow: a load runs all three.
package enum JSONParsing {
    /// Parses a JSON body whose top level is an object or an array.
    ///
    /// On Linux, `FastJSONParser` is tried first and `JSONSerialization` parses whatever it gives up on, always
    /// with `.fragmentsAllowed`; then the top-level type is checked here: Foundation on Linux
    /// rejects bare scalars without that option while some Apple releases accept them, and this way both report
    /// the same typed cause.
    ///
    /// - Returns: a `[String: Any]` or an `[Any]`.
    /// - Throws: a `RequestError` with the message "Cannot parse server response" and, as its cause, either the
    ///   parser's own error (malformed or empty input; `NSCocoaErrorDomain` 3840) or
    ///   `JSONResponseIsNotDictionaryOrArray` for a top-level `17`, `"foo"` or `null`.
    package static func parse(_ data: Data) throws -> Any {
        #if canImport(FoundationNetworking)
        // corelibs' `JSONSerialization` is slow on small bodies; the fast parser builds the same values for plain
        // JSON and gives up on anything else, which then takes the path below.
        if let parsed = FastJSONParser.parse(data) { return parsed }
        #endif
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw RequestError.cannotParseResponse(cause: error)
        }
        if let dictionary = object as? [String: Any] { return dictionary }
        if let array = object as? [Any] { return array }
        throw RequestError.cannotParseResponse(
            cause: RequestError.Cause.JSONResponseIsNotDictionaryOrArray(actualType: type(of: object)))
    }
}

/// The standard JSON transformer (rules F7–F10): a `Data` body, or a `String` one (`text/json`, which the text
/// transformer decodes first), becomes `[String: Any]` or `[Any]`; error bodies too.
///
/// What `ResponseContentTransformer<Any, Any>` with `transformErrors` would do, written out: that generic path
/// casts the content to `Any` and builds an entity for the processor and another for its output, on every
/// response. Here the entity is copied once, with the parsed content put in place.
struct JSONTransformer: ResponseTransformer, CustomStringConvertible {
    var description: String { "JSON" }

    func process(_ response: Response) -> Response {
        switch response {
        case .success(let entity):
            return parse(entity)
        case .failure(let error):
            // An error body that fails to parse leaves the original error in place.
            guard let body = error.entity, case .success(let parsed) = parse(body) else { return response }
            var result = error
            result.entity = parsed
            return .failure(result)
        }
    }

    private func parse(_ entity: Entity<Any>) -> Response {
        let parsed: Any
        do {
            switch entity.content {
            case let data as Data:
                parsed = try entity.attributingErrors { try JSONParsing.parse(data) }
            case let text as String:
                parsed = try entity.attributingErrors { try JSONParsing.parse(Data(text.utf8)) }
            default:
                let cause = RequestError.Cause.WrongInputTypeInTranformerPipeline(
                    expectedType: Data.self, actualType: type(of: entity.content), transformer: description)
                return .failure(RequestError.cannotParseResponse(cause: cause, entity: entity))
            }
        } catch let error as RequestError {
            return .failure(error)
        } catch {
            return .failure(RequestError.cannotParseResponse(cause: error, entity: entity))
        }
        var result = entity
        result.content = parsed
        return .success(result)
    }
}

#if canImport(FoundationNetworking)
/// A JSON parser for the plain subset of JSON that most response bodies use, tried before `JSONSerialization` on
/// Linux, where swift-corelibs-foundation's parser is the largest single cost of a small load (rules F7–F9).
///
/// It builds exactly what corelibs `JSONSerialization` builds for the same input: `[String: Any]` (a repeated key
/// keeps its first spelling and its last value), `[Any]`, `String`, `NSNull`, `NSNumber(value: Bool)`,
/// `NSNumber(value: Int)` for integers and `NSNumber(value: Double)` for numbers with a fraction or an exponent.
/// On anything else it gives up and returns `nil`, and `JSONSerialization` decides, so its quirks (trailing commas,
/// byte order marks, other encodings) and its error messages stay its own. It gives up on:
/// - a top level that is not an object or an array, or anything but whitespace after it;
/// - nesting deeper than `maximumDepth`;
/// - strings with invalid UTF-8, raw control characters, unknown escapes or `\u` escapes of surrogates;
/// - integers of more than 18 digits (corelibs turns large ones into `UInt64` or `NSDecimalNumber`), numbers with
///   a fraction or exponent that corelibs may turn into `NSDecimalNumber`, numbers longer than
///   `maximumNumberLength` bytes, and doubles that are not finite;
/// - strings with a raw U+FEFF (corelibs drops it at the start of a string and after an escape).
struct FastJSONParser {
    /// Far below corelibs' own limit of 512, so the recursion stays shallow; deeper documents are rare.
    static let maximumDepth = 64
    /// Long numbers are rare in responses; leaving them to corelibs means trusting `Double(_:)` only on short ones.
    static let maximumNumberLength = 40

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The parsed `[String: Any]` or `[Any]`, or `nil` when `data` is outside the subset this parser handles.
    static func parse(_ data: Data) -> Any? {
        data.withUnsafeBytes { raw in
            var parser = FastJSONParser(bytes: raw.assumingMemoryBound(to: UInt8.self))
            return parser.parseDocument()
        }
    }

    private mutating func parseDocument() -> Any? {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == .openBrace || bytes[index] == .openBracket,
            let value = parseValue(depth: 0)
        else { return nil }
        skipWhitespace()
        return index == bytes.count ? value : nil
    }

    private mutating func parseValue(depth: Int) -> Any? {
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case .quote: return parseString()
        case .openBrace: return parseObject(depth: depth + 1)
        case .openBracket: return parseArray(depth: depth + 1)
        case .minus, .zero ... .nine: return parseNumber()
        case UInt8(ascii: "t"): return parseLiteral("true") ? NSNumber(value: true) : nil
        case UInt8(ascii: "f"): return parseLiteral("false") ? NSNumber(value: false) : nil
        case UInt8(ascii: "n"): return parseLiteral("null") ? NSNull() : nil
        default: return nil
        }
    }

    // MARK: Containers

    private mutating func parseObject(depth: Int) -> [String: Any]? {
        guard depth <= Self.maximumDepth else { return nil }
        index += 1
        var object: [String: Any] = [:]
        skipWhitespace()
        if consume(.closeBrace) { return object }
        // The smallest table beyond the first few growth steps, which were a large part of parsing a small body.
        object.reserveCapacity(6)
        while true {
            guard index < bytes.count, bytes[index] == .quote, let key = parseString() else { return nil }
            skipWhitespace()
            guard consume(.colon) else { return nil }
            skipWhitespace()
            guard let value = parseValue(depth: depth) else { return nil }
            // Like corelibs: a repeated key keeps its first spelling (Swift's equality is canonical) and last value.
            object[key] = value
            skipWhitespace()
            if consume(.comma) {
                skipWhitespace()
                continue
            }
            return consume(.closeBrace) ? object : nil
        }
    }

    private mutating func parseArray(depth: Int) -> [Any]? {
        guard depth <= Self.maximumDepth else { return nil }
        index += 1
        var array: [Any] = []
        skipWhitespace()
        if consume(.closeBracket) { return array }
        while true {
            guard let value = parseValue(depth: depth) else { return nil }
            array.append(value)
            skipWhitespace()
            if consume(.comma) {
                skipWhitespace()
                continue
            }
            return consume(.closeBracket) ? array : nil
        }
    }

    // MARK: Strings

    /// A string from its opening quote. A run without escapes becomes a `String` straight from the input bytes.
    private mutating func parseString() -> String? {
        index += 1
        let start = index
        var allBits: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == .quote {
                let run = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                // Only a run with a non-ASCII byte can be invalid UTF-8, which `String(decoding:)` would repair.
                if allBits < 0x80 { return String(decoding: run, as: UTF8.self) }
                return run.containsByteOrderMark ? nil : String(validating: run, as: UTF8.self)
            }
            if byte == .backslash { return parseEscapedString(from: start) }
            if byte < 0x20 { return nil }
            allBits |= byte
            index += 1
        }
        return nil
    }

    /// The rest of a string that has escapes, from its first backslash: unescaped into a buffer, then validated.
    private mutating func parseEscapedString(from start: Int) -> String? {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(index - start + 16)
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case .quote:
                index += 1
                return buffer.containsByteOrderMark ? nil : String(validating: buffer, as: UTF8.self)
            case .backslash:
                guard appendEscape(to: &buffer) else { return nil }
            case ..<0x20:
                return nil
            default:
                buffer.append(byte)
                index += 1
            }
        }
        return nil
    }

    private mutating func appendEscape(to buffer: inout [UInt8]) -> Bool {
        guard index + 1 < bytes.count else { return false }
        let escaped = bytes[index + 1]
        index += 2
        switch escaped {
        case .quote, .backslash, .slash: buffer.append(escaped)
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
            // `Unicode.Scalar` rejects surrogates: pairs and lone halves alike are left to corelibs.
            guard let value = parseHex4(), let scalar = Unicode.Scalar(value) else { return false }
            buffer.append(contentsOf: scalar.utf8)
        default: return false
        }
        return true
    }

    private mutating func parseHex4() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case .zero ... .nine: digit = byte - .zero
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    // MARK: Numbers and literals

    /// A number per the JSON grammar `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    private mutating func parseNumber() -> NSNumber? {
        let start = index
        let negative = bytes[index] == .minus
        if negative { index += 1 }
        guard index < bytes.count else { return nil }
        var magnitude = 0
        var integerDigits = 0
        if bytes[index] == .zero {
            index += 1
            integerDigits = 1
        } else {
            while index < bytes.count, let digit = bytes[index].digitValue {
                // Past 18 digits the value is not used: such integers are given up on below.
                if integerDigits < 18 { magnitude = magnitude * 10 + digit }
                integerDigits += 1
                index += 1
            }
            guard integerDigits > 0 else { return nil }
        }
        var isInteger = true
        var mantissaEnd: Int?
        if index < bytes.count, bytes[index] == .dot {
            isInteger = false
            index += 1
            guard skipDigits() else { return nil }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            if bytes[index] == UInt8(ascii: "e") { mantissaEnd = index }
            index += 1
            if index < bytes.count, bytes[index] == .plus || bytes[index] == .minus { index += 1 }
            guard skipDigits() else { return nil }
        }
        if isInteger {
            guard integerDigits <= 18 else { return nil }
            return NSNumber(value: negative ? -magnitude : magnitude)
        }
        // corelibs may make an `NSDecimalNumber` of a number with more than 17 characters before its exponent (it
        // only looks for a lowercase `e`, so with an uppercase `E`, or none, that is the whole number).
        guard (mantissaEnd ?? index) - start <= 17, index - start <= Self.maximumNumberLength else { return nil }
        // `Double(_:)` rounds correctly, as corelibs does; it yields an infinity, not nil, for `1e400`.
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let double = Double(text), double.isFinite else { return nil }
        return NSNumber(value: double)
    }

    /// Skips one or more digits; `false` if there is none.
    private mutating func skipDigits() -> Bool {
        let start = index
        while index < bytes.count, bytes[index].digitValue != nil { index += 1 }
        return index > start
    }

    private mutating func parseLiteral(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: count)
        for offset in 0..<count where bytes[index + offset] != expected[offset] { return false }
        index += count
        return true
    }

    // MARK: Punctuation

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case .space, .tab, .lineFeed, .carriageReturn: index += 1
            default: return
            }
        }
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }
}

extension UInt8 {
    fileprivate static let quote = UInt8(ascii: "\"")
    fileprivate static let backslash = UInt8(ascii: "\\")
    fileprivate static let slash = UInt8(ascii: "/")
    fileprivate static let openBrace = UInt8(ascii: "{")
    fileprivate static let closeBrace = UInt8(ascii: "}")
    fileprivate static let openBracket = UInt8(ascii: "[")
    fileprivate static let closeBracket = UInt8(ascii: "]")
    fileprivate static let colon = UInt8(ascii: ":")
    fileprivate static let comma = UInt8(ascii: ",")
    fileprivate static let minus = UInt8(ascii: "-")
    fileprivate static let plus = UInt8(ascii: "+")
    fileprivate static let dot = UInt8(ascii: ".")
    fileprivate static let zero = UInt8(ascii: "0")
    fileprivate static let nine = UInt8(ascii: "9")
    fileprivate static let space = UInt8(ascii: " ")
    fileprivate static let tab = UInt8(ascii: "\t")
    fileprivate static let lineFeed = UInt8(ascii: "\n")
    fileprivate static let carriageReturn = UInt8(ascii: "\r")

    /// The value of an ASCII decimal digit, or `nil`.
    fileprivate var digitValue: Int? {
        self >= .zero && self <= .nine ? Int(self - .zero) : nil
    }
}

extension Collection<UInt8> {
    /// Whether the bytes hold U+FEFF in UTF-8, which corelibs drops from some places in a string.
    fileprivate var containsByteOrderMark: Bool {
        var state = 0
        for byte in self {
            switch (state, byte) {
            case (_, 0xEF): state = 1
            case (1, 0xBB): state = 2
            case (2, 0xBF): return true
            default: state = 0
            }
        }
        return false
    }
}
#endif
