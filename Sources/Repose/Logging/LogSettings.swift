import Foundation

#if canImport(Synchronization)
import Synchronization
#endif

/// `ReposeLog`'s settings: written rarely (at startup, in tests), read by every log call on any thread.
///
/// Why this shape: the full settings (handler, enabled set, redaction settings) live behind a lock, which is correct
/// from any thread but not free. Log calls must cost next to nothing while their category is
/// off, so every write also publishes a one-word summary to `LogGate`: the enabled bits, plus a flag while any
/// task-scoped override is active. A log call reads that word with one relaxed atomic load, no lock, and stops
/// there unless its category (or an override) might let it through. Only a message that will be logged takes the
/// lock, to read the handler, and building and handling the line costs far more than that. A `nonisolated(unsafe)` global would be
/// as cheap, but settings do change while other threads log (tests do it all the time), and that would be a data
/// race; the atomic word is not.
final class LogSettings: @unchecked Sendable {
    // Safe: `values` is only read and written under `lock`.
    private struct Values {
        var enabled: ReposeLog.Category = .none
        var handler: ReposeLog.MessageHandler = ReposeLog.defaultMessageHandler
        var redactsSecrets = true
        var sensitiveNames = ReposeLog.SensitiveNames.standard
        var activeOverrides = 0
    }

    private static let overrideFlag: UInt64 = 1 << 32

    private let lock = NSLock()
    private var values = Values()

    var enabled: ReposeLog.Category {
        get { lock.withLock { values.enabled } }
        set { update { $0.enabled = newValue } }
    }

    var handler: ReposeLog.MessageHandler {
        get { lock.withLock { values.handler } }
        set { update { $0.handler = newValue } }
    }

    var redactsSecrets: Bool {
        get { lock.withLock { values.redactsSecrets } }
        set { update { $0.redactsSecrets = newValue } }
    }

    var sensitiveNames: ReposeLog.SensitiveNames {
        get { lock.withLock { values.sensitiveNames } }
        set { update { $0.sensitiveNames = newValue } }
    }

    /// The handler for a message in `category` logged here (on this task, with the current settings), or `nil`
    /// if the message is not to be logged.
    ///
    /// Static, so that the first check touches nothing that needs lazy initialization: a category that is off
    /// globally, with no task-scoped override active anywhere, costs one atomic load and a bit test.
    @inline(__always)
    static func handler(for category: ReposeLog.Category) -> ReposeLog.MessageHandler? {
        let word = LogGate.load()
        guard word & (UInt64(category.rawValue) | overrideFlag) != 0 else { return nil }
        return ReposeLog.settings.resolveHandler(for: category, word: word)
    }

    /// The second check: a task-scoped override's enabled set if there is one (a task-local lookup, only while
    /// some override is active), else the global set as published in the word. Only a message that will be
    /// logged takes the lock, to read the handler.
    private func resolveHandler(for category: ReposeLog.Category, word: UInt64) -> ReposeLog.MessageHandler? {
        let override = word & Self.overrideFlag != 0 ? ReposeLog.currentOverride : nil
        let enabled = override?.enabled ?? ReposeLog.Category(rawValue: UInt32(truncatingIfNeeded: word))
        guard !enabled.isDisjoint(with: category) else { return nil }
        return override?.handler ?? handler
    }

    /// Makes log calls look for task-scoped overrides until the matching `endOverride()`.
    func beginOverride() {
        update { $0.activeOverrides += 1 }
    }

    func endOverride() {
        update { $0.activeOverrides -= 1 }
    }

    /// Changes the settings and republishes the summary word while still holding the lock, so that concurrent
    /// writers cannot publish their words out of order.
    private func update(_ change: (inout Values) -> Void) {
        lock.withLock {
            change(&values)
            let flag = values.activeOverrides > 0 ? Self.overrideFlag : 0
            LogGate.store(UInt64(values.enabled.rawValue) | flag)
        }
    }
}

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
