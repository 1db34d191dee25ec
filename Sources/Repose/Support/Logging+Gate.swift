import Foundation

#if canImport(Synchronization)
import Synchronization
#endif

/// One word that any thread may read and write: the summary of the log settings that every log call checks
/// before anything else (see `LogSettings`).
///
/// The word is a static `Atomic`, which the compiler initializes statically: reading it is a single load, with
/// no lazy-initialization check, no lock and no dynamic dispatch. `Atomic` needs macOS 15, iOS 18, tvOS 18,
/// watchOS 11 or visionOS 2 on Apple systems (Linux always has it); older systems fall back to a locked word.
enum LogGate {
    @inline(__always)
    static func load() -> UInt64 {
        #if canImport(Synchronization)
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            // Relaxed is enough: the word only decides whether to look further, and everything a log call then
            // reads (handler, enabled set) is read under the settings lock, which orders it after the write.
            return AtomicLogWord.word.load(ordering: .relaxed)
        }
        #endif
        return LockedLogWord.shared.load()
    }

    static func store(_ word: UInt64) {
        #if canImport(Synchronization)
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            AtomicLogWord.word.store(word, ordering: .relaxed)
            return
        }
        #endif
        LockedLogWord.shared.store(word)
    }
}

#if canImport(Synchronization)
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
private enum AtomicLogWord {
    static let word = Atomic<UInt64>(0)
}
#endif

/// The fallback for Apple systems older than `Atomic`: still correct, at the price of a lock per log call.
private final class LockedLogWord: @unchecked Sendable {
    // Safe: `word` is only touched under `lock`.
    static let shared = LockedLogWord()

    private let lock = NSLock()
    private var word: UInt64 = 0

    func load() -> UInt64 { lock.withLock { word } }

    func store(_ newWord: UInt64) { lock.withLock { word = newWord } }
}
