import Foundation

#if canImport(Synchronization)
import Synchronization
#endif

/// One word that any thread may read and write: the summary that log calls check before anything else.
protocol LogGate: Sendable {
    func load() -> UInt64
    func store(_ word: UInt64)
}

/// An atomic word where the system has `Atomic` (always on Linux; macOS 15, iOS 18 and later on Apple systems),
/// a locked one otherwise.
func makeLogGate() -> any LogGate {
    #if canImport(Synchronization)
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
        return AtomicLogGate()
    }
    #endif
    return LockedLogGate()
}

#if canImport(Synchronization)
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class AtomicLogGate: LogGate {
    private let word = Atomic<UInt64>(0)

    // Relaxed is enough: the word only decides whether to look further, and everything a log call then reads
    // (handler, enabled set) is read under the settings lock, which orders it after the write that set it.
    func load() -> UInt64 { word.load(ordering: .relaxed) }

    func store(_ newWord: UInt64) { word.store(newWord, ordering: .relaxed) }
}
#endif

/// The fallback for Apple systems older than `Atomic`: still correct, at the price of a lock per log call.
final class LockedLogGate: LogGate, @unchecked Sendable {
    // Safe: `word` is only touched under `lock`.
    private let lock = NSLock()
    private var word: UInt64 = 0

    func load() -> UInt64 { lock.withLock { word } }

    func store(_ newWord: UInt64) { lock.withLock { word = newWord } }
}
