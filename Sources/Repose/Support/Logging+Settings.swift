import Foundation

/// `ReposeLog`'s settings: written rarely (at startup, in tests), read by every log call on any thread.
///
/// Why this shape: the full settings (handler, enabled set, redaction flag) live behind a lock, which is correct
/// from any thread but costs tens of nanoseconds. Log calls must cost next to nothing while their category is
/// off, so every write also publishes a one-word summary to `LogGate`: the enabled bits, plus a flag while any
/// task-scoped override is active. A log call reads that word with one relaxed atomic load, no lock, and stops
/// there unless its category (or an override) might let it through. Only then does it take the lock, and only
/// then is a line built and handled, which costs far more than the lock. A `nonisolated(unsafe)` global would be
/// as cheap, but settings do change while other threads log (tests do it all the time), and that would be a data
/// race; the atomic word is not.
final class LogSettings: @unchecked Sendable {
    // Safe: `values` is only read and written under `lock`.
    private struct Values {
        var enabled: ReposeLog.Category = .none
        var handler: ReposeLog.MessageHandler = ReposeLog.defaultMessageHandler
        var redactsSensitiveHeaders = true
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

    var redactsSensitiveHeaders: Bool {
        get { lock.withLock { values.redactsSensitiveHeaders } }
        set { update { $0.redactsSensitiveHeaders = newValue } }
    }

    /// The lock-free first check of every log call: `false` means the message is certainly not logged.
    ///
    /// Static, so that it touches nothing that needs lazy initialization.
    @inline(__always)
    static func gateAllows(_ category: ReposeLog.Category) -> Bool {
        LogGate.load() & (UInt64(category.rawValue) | overrideFlag) != 0
    }

    /// The enabled set and handler that apply to the current task: a task-scoped override's, else the global ones.
    func resolved() -> (enabled: ReposeLog.Category, handler: ReposeLog.MessageHandler) {
        let global = lock.withLock { (values.enabled, values.handler) }
        guard let override = ReposeLog.currentOverride else { return global }
        return (override.enabled ?? global.0, override.handler ?? global.1)
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
