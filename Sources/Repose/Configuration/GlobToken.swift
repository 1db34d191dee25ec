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
        if tokens.isEmpty { return text.isEmpty }
        if tokens.count == 1, case .literal(let literal) = tokens[0] { return literal == text }
        let count = text.count
        var current = [Bool](repeating: false, count: count + 1)
        var next = current
        current[0] = true
        for token in tokens {
            for position in next.indices { next[position] = false }
            advance(token, text: text, from: current, to: &next)
            guard next.contains(true) else { return false }
            swap(&current, &next)
        }
        return current[count]
    }

    /// Marks in `next` every position the token can end at, starting from any position set in `current`.
    private static func advance(_ token: GlobToken, text: [UInt8], from current: [Bool], to next: inout [Bool]) {
        let count = text.count
        switch token {
        case .literal(let literal):
            for start in 0...count where current[start] && count - start >= literal.count {
                if text[start..<(start + literal.count)].elementsEqual(literal) { next[start + literal.count] = true }
            }
        case .oneCharacter:
            for start in 0..<count where current[start] && text[start] != slash {
                var end = start + 1
                while end < count, text[end] & 0xC0 == 0x80 { end += 1 }  // the rest of a UTF-8 sequence
                next[end] = true
            }
        case .segmentRun:
            var reachable = false
            for position in 0...count {
                if current[position] { reachable = true }
                if reachable { next[position] = true }
                if position < count, text[position] == slash { reachable = false }
            }
        case .anything:
            var reachable = false
            for position in 0...count {
                if current[position] { reachable = true }
                next[position] = reachable
            }
        case .slashAnythingSlash:
            var afterFirstSlash = false
            for position in 0...count {
                if position > 0, current[position - 1], text[position - 1] == slash {
                    afterFirstSlash = true
                    next[position] = true
                }
                if afterFirstSlash, position < count, text[position] == slash { next[position + 1] = true }
            }
        }
    }
}
