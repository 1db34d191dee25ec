import Foundation

/// A clock that moves only when a test says so.
final class ManualClock: @unchecked Sendable {
    // Safe: every access goes through the lock.
    private let lock = NSLock()
    private var current: TimeInterval

    init(_ start: TimeInterval = 1000) {
        current = start
    }

    var now: TimeInterval {
        get { lock.withLock { current } }
        set { lock.withLock { current = newValue } }
    }

    /// The closure form a `Service` takes.
    var read: @Sendable () -> TimeInterval {
        { [self] in now }
    }
}
