/// A set of content-type patterns, compiled once and shared, that decides whether a response's content type
/// belongs to a parser (`*/json` and `*/*+json` for JSON, `text/*` for text, `image/*` for images).
///
/// Pattern syntax:
/// - `*` matches any run of characters, possibly empty, except `/`, `+` and `;`. So a wildcard stays within the
///   type, the subtype, or one part of a structured-syntax suffix: `*/json` matches `application/json` and
///   `text/json` but not `application/hal+json`; `application/*+json` and `*/*+json` match `application/hal+json`;
///   `image/*` does not match `image/svg+xml`, which is XML rather than a bitmap (add `image/*+*` to want it).
/// - Every other character is literal. Matching ignores ASCII case and whitespace around the type.
/// - Parameters are ignored on both sides: `text/plain; charset=utf-8` is `text/plain`.
///
/// Matching walks the UTF-8 bytes of the content type in place: no regular expression, no allocation for native
/// strings, and work bounded by content-type length × pattern length. Content types longer than 255 bytes
/// (RFC 6838 caps type and subtype at 127 characters each) never match.
struct ContentTypeMatcher: Sendable, Hashable, CustomStringConvertible {
    /// A pattern split at its separators: a star cannot match `/` or `+`, so every separator in a content type
    /// must meet the same literal separator in the pattern, and the parts between them match independently.
    private struct Pattern: Sendable, Hashable {
        var parts: [[UInt8]]
        var separators: [UInt8]
    }

    /// The patterns as given.
    let patterns: [String]
    private let compiled: [Pattern]

    /// Compiles patterns; a content type matches if it matches any of them.
    init(_ patterns: [String]) {
        self.patterns = patterns
        self.compiled = patterns.map(Self.compile)
    }

    /// Compiles patterns; a content type matches if it matches any of them.
    init(_ patterns: String...) {
        self.init(patterns)
    }

    /// JSON: `*/json` and `*/*+json` (rule F7).
    static let json = ContentTypeMatcher("*/json", "*/*+json")
    /// Text: `text/*` (rule F1).
    static let text = ContentTypeMatcher("text/*")
    /// Images: `image/*`.
    static let image = ContentTypeMatcher("image/*")

    var description: String { "ContentTypeMatcher(\(patterns.joined(separator: ", ")))" }

    /// Whether `contentType` matches any of the patterns.
    func matches(_ contentType: String) -> Bool {
        if let result = contentType.utf8.withContiguousStorageIfAvailable({ matches(bytes: $0) }) {
            return result
        }
        return Array(contentType.utf8).withUnsafeBufferPointer { matches(bytes: $0) }
    }

    private static let maximumLength = 255

    private static func compile(_ pattern: String) -> Pattern {
        var compiled = Pattern(parts: [[]], separators: [])
        for byte in essence(of: Array(pattern.utf8)) {
            if isSeparator(byte) {
                compiled.separators.append(byte)
                compiled.parts.append([])
            } else {
                compiled.parts[compiled.parts.count - 1].append(lowercased(byte))
            }
        }
        return compiled
    }

    private func matches(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let subject = Self.essence(of: bytes)
        guard subject.count <= Self.maximumLength else { return false }
        return compiled.contains { Self.matches($0, subject: subject) }
    }

    private static func matches(_ pattern: Pattern, subject: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        var start = subject.startIndex
        for (index, part) in pattern.parts.enumerated() {
            var end = start
            while end < subject.endIndex, !isSeparator(subject[end]) { end += 1 }
            guard glob(part, matches: subject[start..<end]) else { return false }
            guard index < pattern.separators.count else { return end == subject.endIndex }
            guard end < subject.endIndex, subject[end] == pattern.separators[index] else { return false }
            start = end + 1
        }
        return false
    }

    /// Glob match within one part, where a star matches any run. Backtracking only to the most recent star is
    /// enough there, so the work is at most part length × pattern length.
    private static func glob(_ pattern: [UInt8], matches subject: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        let star = UInt8(ascii: "*")
        var patternIndex = 0
        var subjectIndex = subject.startIndex
        var lastStar: (patternIndex: Int, subjectIndex: Int)?
        while subjectIndex < subject.endIndex {
            if patternIndex < pattern.count, pattern[patternIndex] == star {
                lastStar = (patternIndex, subjectIndex)
                patternIndex += 1
            } else if patternIndex < pattern.count, pattern[patternIndex] == lowercased(subject[subjectIndex]) {
                patternIndex += 1
                subjectIndex += 1
            } else if let star = lastStar {
                lastStar = (star.patternIndex, star.subjectIndex + 1)
                patternIndex = star.patternIndex + 1
                subjectIndex = star.subjectIndex + 1
            } else {
                return false
            }
        }
        while patternIndex < pattern.count, pattern[patternIndex] == star { patternIndex += 1 }
        return patternIndex == pattern.count
    }

    private static func isSeparator(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "/") || byte == UInt8(ascii: "+")
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }

    /// The bytes before any `;`, without surrounding spaces and tabs.
    private static func essence<Bytes: RandomAccessCollection<UInt8>>(of bytes: Bytes) -> Bytes.SubSequence {
        let end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex
        var start = bytes.startIndex
        var last = end
        while start < last, HeaderFieldScanner.isSpace(bytes[start]) { start = bytes.index(after: start) }
        while last > start, HeaderFieldScanner.isSpace(bytes[bytes.index(last, offsetBy: -1)]) {
            last = bytes.index(last, offsetBy: -1)
        }
        return bytes[start..<last]
    }
}
