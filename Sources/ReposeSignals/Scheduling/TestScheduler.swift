import Dispatch

/// A scheduler with virtual time for tests: nothing runs until you advance its clock (S13).
///
/// ```swift
/// let scheduler = TestScheduler()
/// let results = query.signal.debounce(for: .milliseconds(300), scheduler: scheduler)
/// query.value = "sw"
/// scheduler.advance(by: .milliseconds(300))  // the debounced value is delivered now
/// ```
///
/// Tests never sleep: ``advance(by:)`` runs every action that falls due, in due-time order, and ``run()``
/// runs everything scheduled. Its time may be read from any thread (a `Service` stamps responses with it while
/// they are processed off the main actor); actions run on the thread that advances it.
public final class TestScheduler: Scheduler, @unchecked Sendable {
    // Safe: `queue` and `current` are only touched while holding `lock`, and actions run after it is released, so
    // an action may schedule more work or read the time.
    private let lock = DispatchSemaphore(value: 1)
    private var queue: [(due: Duration, work: ScheduledWork)] = []
    private var current: Duration

    /// Creates a scheduler whose virtual time starts at `now`: zero unless a test wants timestamps that look like a
    /// date (a `Service` reads this scheduler's time as seconds since 1970).
    public init(now: Duration = .zero) {
        current = now
    }

    /// The virtual time, moved only by ``advance(by:)`` and ``run()``.
    public var now: Duration { locked { current } }

    /// Always true: time moves only when the test moves it.
    public var usesVirtualTime: Bool { true }

    /// How many actions are scheduled and neither run nor cancelled.
    public var pendingCount: Int { locked { queue.reduce(0) { $0 + ($1.work.isDone ? 0 : 1) } } }

    /// Schedules `action` at `now + delay` in virtual time.
    ///
    /// - Parameters:
    ///   - delay: How long to wait in virtual time; negative counts as zero.
    ///   - action: The work to run.
    /// - Returns: The scheduled work, which can be cancelled.
    public func schedule(after delay: Duration, _ action: @escaping () -> Void) -> ScheduledWork {
        let work = ScheduledWork(action)
        locked {
            let due = current + max(delay, .zero)
            // After everything due at the same time or earlier, so equal due times run in schedule order.
            queue.insert((due, work), at: (queue.lastIndex { $0.due <= due } ?? -1) + 1)
        }
        return work
    }

    /// Moves virtual time forward by `duration`, running every action due by then, in due-time order.
    ///
    /// Actions scheduled by those actions also run if they fall due within the window.
    ///
    /// - Parameter duration: How far to move the clock; negative counts as zero.
    public func advance(by duration: Duration = .zero) {
        let target = locked { current + max(duration, .zero) }
        while let work = takeFirst(dueBy: target) {
            work.run()
        }
        locked { current = max(current, target) }
    }

    /// Runs every scheduled action, including ones they schedule, moving the clock to each due time.
    public func run() {
        while let work = takeFirst(dueBy: nil) {
            work.run()
        }
    }

    /// Removes the first action due by `target` (any, when `nil`) and moves the clock to its due time.
    private func takeFirst(dueBy target: Duration?) -> ScheduledWork? {
        locked {
            guard let first = queue.first, target.map({ first.due <= $0 }) ?? true else { return nil }
            queue.removeFirst()
            current = max(current, first.due)
            return first.work
        }
    }

    private func locked<T>(_ body: () -> T) -> T {
        lock.wait()
        defer { lock.signal() }
        return body()
    }
}
