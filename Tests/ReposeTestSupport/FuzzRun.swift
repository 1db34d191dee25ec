import Foundation
import Testing

/// SplitMix64 (Steele, Lea and Flood, 2014): a tiny seeded generator whose output is the same on every platform, so
/// that "random" test inputs are the same on every run and a failing fuzz case can be replayed from its seed.
struct SeededGenerator: RandomNumberGenerator {
    private(set) var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

/// One fuzz case: its own generator, and a log of what it built, printed when the case fails.
struct FuzzCase {
    private var random: SeededGenerator
    private(set) var log: [String] = []

    init(seed: UInt64) {
        random = SeededGenerator(seed: seed)
    }

    mutating func note(_ step: String) {
        log.append(step)
    }

    mutating func int(in range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &random)
    }

    /// `true` with a probability of `percent` in 100.
    mutating func chance(_ percent: Int) -> Bool {
        int(in: 1...100) <= percent
    }

    mutating func pick<Element>(_ elements: [Element]) -> Element {
        elements[int(in: 0...(elements.count - 1))]
    }

    /// `true` once in `n` times, on average.
    mutating func oneIn(_ n: Int) -> Bool {
        int(in: 1...n) == 1
    }

    mutating func bytes(count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    }
}

/// Runs a property over many generated cases, deterministically: a fixed seed unless `REPOSE_FUZZ_SEED` gives
/// another (decimal or `0x` hex). Case `n` of a run has its own seed, derived from the run's seed and `n`, so
/// `REPOSE_FUZZ_CASE=n` replays that case alone. The first failing case stops the run and is reported, with its
/// log and the variables that replay it, as a test issue and on standard output.
///
/// `REPOSE_FUZZ_SHARE=p` runs the first `p` percent of each property's cases (at least one). CI's AddressSanitizer
/// step uses it: every code path still runs under the sanitizer, while the debug and release steps run every case.
struct FuzzRun {
    static let defaultSeed: UInt64 = 0x5EED_2026_1123
    let seed: UInt64
    let onlyCase: Int?
    let sharePercent: Int

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        seed = environment["REPOSE_FUZZ_SEED"].flatMap(Self.parse) ?? Self.defaultSeed
        onlyCase = environment["REPOSE_FUZZ_CASE"].flatMap { Int($0) }
        sharePercent = environment["REPOSE_FUZZ_SHARE"].flatMap { Int($0) }.map { min(max($0, 1), 100) } ?? 100
    }

    /// How many of `count` cases this run checks.
    func casesToRun(of count: Int) -> Int {
        count <= 0 ? 0 : max(1, count * sharePercent / 100)
    }

    /// Checks `property` on `count` cases; it returns `nil` when the case holds, else what went wrong. `filter` is
    /// what the replay command passes to `swift test --filter`. Runs where the caller runs: on the main actor for a
    /// main-actor suite, off it for a suite that needs no actor (a long run there holds up no other test).
    func check(
        _ name: String, cases count: Int, filter: String = "URLFuzz", sourceLocation: SourceLocation = #_sourceLocation,
        isolation: isolated (any Actor)? = #isolation, _ property: (inout FuzzCase) async -> String?
    ) async {
        let indices = onlyCase.map { [$0] } ?? Array(0..<casesToRun(of: count))
        for index in indices {
            // Give up the caller's actor now and then: on the main actor, which other tests need for their
            // deliveries, a long run (slow under a sanitizer) would otherwise starve them into timeouts.
            if index % 50 == 0 { await Task.yield() }
            var fuzzCase = FuzzCase(seed: Self.caseSeed(run: seed, index: index))
            guard let failure = await property(&fuzzCase) else { continue }
            let report = """
                fuzz property "\(name)" failed: \(failure)
                case log:
                \(fuzzCase.log.map { "  " + $0 }.joined(separator: "\n"))
                replay: REPOSE_FUZZ_SEED=0x\(String(seed, radix: 16)) REPOSE_FUZZ_CASE=\(index) \
                swift test --filter \(filter)
                """
            print(report)
            Issue.record(Comment(rawValue: report), sourceLocation: sourceLocation)
            return
        }
    }

    static func caseSeed(run: UInt64, index: Int) -> UInt64 {
        var mixer = SeededGenerator(seed: run ^ (UInt64(index) &* 0xD1B5_4A32_D192_ED03))
        return mixer.next()
    }

    private static func parse(_ text: String) -> UInt64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.lowercased().hasPrefix("0x") { return UInt64(trimmed.dropFirst(2), radix: 16) }
        return UInt64(trimmed)
    }
}

/// Random text for URL fuzzing: the pieces that break URL code (dots, slashes, escapes, reserved and control
/// characters, look-alikes of `/` and `.`, combining marks, emoji, URL-like fragments) and random Unicode scalars.
enum FuzzText {
    static let pieces: [String] = [
        ".", "..", "...", "/", "//", "./", "../", "/..", "/.", "%", "%2E", "%2e%2E", "%2F", "%zz", "%00", "%25", "?",
        "#", "&", "=", "+", ";", ":", "@", "[", "]", "!", "$", "'", "(", ")", "*", ",", "~", "-", "_", " ", "\\",
        "\"", "<", ">", "^", "`", "{", "|", "}", "\0", "\n", "\t", "\r", "\u{7F}", "\u{1B}", "é", "e\u{301}",
        "\u{301}", "/\u{301}", "𝄞", "👩‍👩‍👧", "\u{200B}", "\u{202E}", "\u{FEFF}", "\u{FFFD}", "\u{2028}", "／", "．",
        "．．", "ｈｔｔｐ", "http://", "https://x.y", "//h", "127.0.0.1:70000", "[::1]", "http://[bad", "a", "b",
        "users", "42", "v1",
    ]

    static func text(_ fuzzCase: inout FuzzCase, maxPieces: Int = 8) -> String {
        var text = ""
        for _ in 0..<fuzzCase.int(in: 0...maxPieces) {
            if fuzzCase.chance(75) {
                text += fuzzCase.pick(pieces)
            } else {
                text.unicodeScalars.append(scalar(&fuzzCase))
            }
        }
        return text
    }

    /// A random scalar, evenly from each UTF-8 length, so multi-byte sequences are as common as ASCII.
    static func scalar(_ fuzzCase: inout FuzzCase) -> Unicode.Scalar {
        let ranges: [ClosedRange<Int>] = [0...0x7F, 0x80...0x7FF, 0x800...0xFFFF, 0x1_0000...0x10_FFFF]
        let value = fuzzCase.int(in: fuzzCase.pick(ranges))
        return Unicode.Scalar(UInt32(value)) ?? "\u{FFFD}"  // surrogates are not scalars
    }
}
