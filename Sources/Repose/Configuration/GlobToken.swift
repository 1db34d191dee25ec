/// One piece of a compiled URL glob, and the matcher for a sequence of them (see `URLPattern`).
///
/// Matching simulates all ways a pattern can consume the text at once, as a set of reachable positions per
/// token, so the work is at most text length × pattern length whatever the pattern: no backtracking blow-up on
/// patterns like `**a**a**a`.
enum GlobToken: Hashable, Sendable {
    /// Bytes that must appear as they are.
    case literal([UInt8])
    /// `?`: one character other than `/`.
    case oneCharacter
    /// `*`: any run of characters other than `/`, possibly empty.
    case segmentRun
    /// `**`: any run of characters.
    case anything
    /// `/**/`: a single `/`, or `/` + anything + `/`.
    case slashAnythingSlash

    private static let slash = UInt8(ascii: "/")
    private static let star = UInt8(ascii: "*")

    /// Splits a glob into tokens, merging adjacent literal bytes.
    static func compile(_ pattern: String) -> [GlobToken] {
        let bytes = Array(pattern.utf8)
        var tokens = [GlobToken]()
        var literal = [UInt8]()
        func flushLiteral() {
            if !literal.isEmpty { tokens.append(.literal(literal)) }
            literal = []
        }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == slash, bytes[index...].starts(with: [slash, star, star, slash]) {
                flushLiteral()
                tokens.append(.slashAnythingSlash)
                index += 4
            } else if byte == star {
                flushLiteral()
                var end = index + 1
                while end < bytes.count, bytes[end] == star { end += 1 }
                tokens.append(end - index == 1 ? .segmentRun : .anything)
                index = end
            } else if byte == UInt8(ascii: "?") {
                flushLiteral()
                tokens.append(.oneCharacter)
                index += 1
            } else {
                literal.append(byte)
                index += 1
            }
        }
        flushLiteral()
        return tokens
    }

    /// Whether the tokens consume the whole text.
    static func matches(_ tokens: [GlobToken], _ text: [UInt8]) -> Bool {
        var remaining = tokens[...]
        var start = 0
        // Patterns nearly always begin with the base URL: check it as a plain prefix first.
        if case .literal(let literal)? = remaining.first {
            guard text.count >= literal.count, text[..<literal.count].elementsEqual(literal) else { return false }
            start = literal.count
            remaining = remaining.dropFirst()
        }
        if remaining.isEmpty { return start == text.count }
        let width = text.count + 1
        // Two sets of reachable positions, on the stack for URLs of ordinary length.
        return withUnsafeTemporaryAllocation(of: Bool.self, capacity: 2 * width) { buffer in
            guard let base = buffer.baseAddress else { return false }
            var current = UnsafeMutableBufferPointer(start: base, count: width)
            var next = UnsafeMutableBufferPointer(start: base + width, count: width)
            current.initialize(repeating: false)
            next.initialize(repeating: false)
            current[start] = true
            // Positions only move forward, so nothing below `lowest` is ever read again.
            var lowest = start
            for token in remaining {
                for position in lowest..<width { next[position] = false }
                guard let newLowest = advance(token, text: text, from: current, lowest: lowest, to: next) else {
                    return false
                }
                swap(&current, &next)
                lowest = newLowest
            }
            return current[text.count]
        }
    }

    /// Marks in `next` every position the token can end at, starting from any position set in `current` (none
    /// below `lowest`). Returns the lowest position marked, or `nil` if none is.
    private static func advance(
        _ token: GlobToken, text: [UInt8], from current: UnsafeMutableBufferPointer<Bool>, lowest: Int,
        to next: UnsafeMutableBufferPointer<Bool>
    ) -> Int? {
        let count = text.count
        var marked = Int.max
        switch token {
        case .literal(let literal):
            for start in lowest...count where current[start] && count - start >= literal.count {
                if text[start..<(start + literal.count)].elementsEqual(literal) {
                    next[start + literal.count] = true
                    marked = min(marked, start + literal.count)
                }
            }
        case .oneCharacter:
            for start in lowest..<count where current[start] && text[start] != slash {
                var end = start + 1
                while end < count, text[end] & 0xC0 == 0x80 { end += 1 }  // the rest of a UTF-8 sequence
                next[end] = true
                marked = min(marked, end)
            }
        case .segmentRun:
            var reachable = false
            for position in lowest...count {
                if current[position] { reachable = true }
                if reachable {
                    next[position] = true
                    marked = min(marked, position)
                }
                if position < count, text[position] == slash { reachable = false }
            }
        case .anything:
            guard let first = (lowest...count).first(where: { current[$0] }) else { return nil }
            for position in first...count { next[position] = true }
            marked = first
        case .slashAnythingSlash:
            guard lowest < count else { return nil }
            var afterFirstSlash = false
            for position in (lowest + 1)...count {
                if current[position - 1], text[position - 1] == slash {
                    afterFirstSlash = true
                    next[position] = true
                    marked = min(marked, position)
                }
                if afterFirstSlash, position < count, text[position] == slash {
                    next[position + 1] = true
                    marked = min(marked, position + 1)
                }
            }
        }
        return marked == Int.max ? nil : marked
    }
}
