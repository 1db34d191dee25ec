import Foundation

#if canImport(Synchronization)
import Synchronization
#endif

/// Repose's logging switch: which categories are logged and where the lines go. Logging is off until you enable
/// some categories, typically once at startup:
///
/// ```swift
/// ReposeLog.enabled = .common  // or [.network, .stateChanges], .detailed, .all
/// ReposeLog.messageHandler = { category, message in logger.info("\(category): \(message)") }
/// ```
///
/// A disabled category costs one atomic load and a bit test per log call; the message is not built. Secrets are
/// always replaced by `<redacted>` in every line and in the descriptions of Repose's values (see ``sensitiveNames``).
public enum ReposeLog {
    typealias MessageHandler = @Sendable (Category, String) -> Void
    typealias Scope = (enabled: Category, handler: MessageHandler)

    /// The categories that are logged; none by default. It may be changed at any time from any thread.
    public static var enabled: Category {
        get { settings[\.enabled] }
        set { settings[\.enabled] = newValue }
    }

    /// Receives each line's category and text, without a prefix; by default lines are printed with one, such as
    /// `[Repose:network] GET https://…`. It is called on the thread that logged the line, never while Repose holds a
    /// lock, so it must be safe to call concurrently.
    public static var messageHandler: @Sendable (Category, String) -> Void {
        get { settings[\.handler] }
        set { settings[\.handler] = newValue }
    }

    static let defaultMessageHandler: MessageHandler = { print(defaultLine($0, $1)) }

    static func defaultLine(_ category: Category, _ message: String) -> String { "[Repose:\(category)] \(message)" }

    /// Logs `message` if `category` (or any of several) is enabled here; the message is only built if it is logged.
    package static func log(_ category: Category, _ message: @autoclosure () -> String) {
        LogSettings.handler(for: category)?(category, message())
    }

    static func isEnabled(_ category: Category) -> Bool { LogSettings.handler(for: category) != nil }

    /// The enabled set or the handler (`nil`: the global one) for one task and its children, so that tests running in
    /// parallel can each capture their lines; set only while `settings.overrides` counts it (see `LogSettings`).
    struct Override: Sendable {
        var enabled: Category?
        var handler: MessageHandler?
    }

    @TaskLocal static var currentOverride: Override?

    static let settings = LogSettings()
}

/// The settings, written rarely and read by every log call on any thread. They live behind a lock, too slow to take
/// for every disabled log call, so every write also publishes the enabled bits to an atomic word, plus a bit while
/// a task-scoped override is active; a log call reads the word first and stops there unless its category (or an
/// override) might let it through. Apple systems older than `Atomic` (macOS 15, iOS 18) take the lock instead.
final class LogSettings: @unchecked Sendable {
    // Safe: `values` is only read and written under `lock`.
    struct Values {
        var enabled: ReposeLog.Category = []
        var handler: ReposeLog.MessageHandler = ReposeLog.defaultMessageHandler
        var sensitiveNames = ReposeLog.SensitiveNames.standard
        var overrides = 0
    }

    private let lock = NSLock()
    private var values = Values()

    subscript<Value>(_ key: WritableKeyPath<Values, Value>) -> Value {
        get { lock.withLock { values[keyPath: key] } }
        set { update { $0[keyPath: key] = newValue } }
    }

    /// Publishes the word under the lock, so that concurrent writers cannot publish theirs out of order.
    func update(_ change: (inout Values) -> Void) {
        lock.withLock {
            change(&values)
            #if canImport(Synchronization)
            if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
                let overriding: UInt64 = values.overrides > 0 ? 1 << 32 : 0
                Word.value.store(UInt64(values.enabled.rawValue) | overriding, ordering: .relaxed)
            }
            #endif
        }
    }

    static func handler(for category: ReposeLog.Category) -> ReposeLog.MessageHandler? {
        scope(for: category)?.handler
    }

    /// The enabled set and the handler in effect on this task, or `nil` if none of `categories` is enabled here.
    static func scope(for categories: ReposeLog.Category) -> ReposeLog.Scope? {
        #if canImport(Synchronization)
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            // Relaxed is enough: the word only decides whether to look further, under the lock.
            let word = Word.value.load(ordering: .relaxed)
            guard word & (UInt64(categories.rawValue) | 1 << 32) != 0 else { return nil }
        }
        #endif
        let settings = ReposeLog.settings
        let (global, handler, overrides) = settings.lock.withLock {
            (settings.values.enabled, settings.values.handler, settings.values.overrides)
        }
        let override = overrides > 0 ? ReposeLog.currentOverride : nil
        let enabled = override?.enabled ?? global
        return enabled.isDisjoint(with: categories) ? nil : (enabled, override?.handler ?? handler)
    }
}

#if canImport(Synchronization)
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
private enum Word {
    static let value = Atomic<UInt64>(0)
}
#endif

extension ReposeLog {
    /// A set of log categories: what a message is about, and which messages are logged. Combine them like any
    /// option set (`[.network, .stateChanges]`) or start from a preset: ``common``, ``detailed``, ``all``.
    public struct Category: OptionSet, Hashable, Sendable, CustomStringConvertible {
        /// The category bits.
        public let rawValue: UInt32
        /// Creates a set from its bits.
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// Each request as it starts (method and URL) and how it ended (status or error).
        public static let network = Category(rawValue: 1 << 0)
        /// Full requests and responses: headers (sensitive values redacted) and body sizes.
        public static let networkDetails = Category(rawValue: 1 << 1)
        /// What each pipeline stage made of a response.
        public static let pipeline = Category(rawValue: 1 << 2)
        /// A resource's data, error and loading flag after each load.
        public static let stateChanges = Category(rawValue: 1 << 3)
        /// Which events observers receive, and how many observers receive them.
        public static let observers = Category(rawValue: 1 << 4)
        /// Why `loadIfNeeded()` did or did not start a load.
        public static let staleness = Category(rawValue: 1 << 5)
        /// Reads from and writes to persistent caches.
        public static let cache = Category(rawValue: 1 << 6)
        /// Configuration changes, and which entries each resource's configuration is built from.
        public static let configuration = Category(rawValue: 1 << 7)
        /// What the debug taps the app placed on signals and states see: `Signal/print(_:)` and `State/print(_:)`.
        public static let signals = Category(rawValue: 1 << 8)
        /// Enough to follow an app's traffic: `network`, `stateChanges` and `staleness`.
        public static let common: Category = [.network, .stateChanges, .staleness]
        /// Everything except `networkDetails`.
        public static let detailed: Category = all.subtracting(.networkDetails)
        /// Every category.
        public static let all = Category(rawValue: 0x1FF)

        private static let names = [
            "network", "networkDetails", "pipeline", "stateChanges", "observers", "staleness", "cache", "configuration",
            "signals",
        ]

        /// `network` for a single category, `[network, staleness]` for a set of several or none.
        public var description: String {
            let parts = (0..<32).filter { rawValue & 1 << $0 != 0 }
                .map { $0 < Self.names.count ? Self.names[$0] : "0x" + String(1 << $0, radix: 16) }
            return parts.count == 1 && Self.all.contains(self) ? parts[0] : "[" + parts.joined(separator: ", ") + "]"
        }
    }
}

/// The log settings of the code that sent a request: its outcome's line is written on the main queue, where a
/// task-scoped handler (tests capture lines this way) may no longer be in effect.
struct LogScope {
    /// The `network` log handler in effect when the request was sent.
    let outcome = LogSettings.handler(for: .network)
    private let override = ReposeLog.currentOverride

    /// Runs `body` with the sender's task-scoped log settings in effect again.
    func run(_ body: () -> Void) {
        guard let override else { return body() }
        ReposeLog.$currentOverride.withValue(override, operation: body)
    }
}
