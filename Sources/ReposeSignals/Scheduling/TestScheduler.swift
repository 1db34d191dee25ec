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
/// runs everything scheduled.
public final class TestScheduler: Scheduler {
    private var queue: [(due: Duration, sequence: Int, work: ScheduledWork)] = []
    private var nextSequence = 0

    /// The virtual time: zero at creation, moved only by ``advance(by:)`` and ``run()``.
    public private(set) var now: Duration = .zero

    /// Creates a scheduler whose virtual time starts at zero.
    public init() {}

    /// How many actions are scheduled and neither run nor cancelled.
    public var pendingCount: Int { queue.reduce(0) { $0 + ($1.work.isDone ? 0 : 1) } }

    /// Schedules `action` at `now + delay` in virtual time.
    ///
    /// - Parameters:
    ///   - delay: How long to wait in virtual time; negative counts as zero.
    ///   - action: The work to run.
    /// - Returns: The scheduled work, which can be cancelled.
    public func schedule(after delay: Duration, _ action: @escaping () -> Void) -> ScheduledWork {
        let work = ScheduledWork(action)
        let due = now + max(delay, .zero)
        let sequence = nextSequence
        nextSequence += 1
        // Insert after everything due at the same time or earlier, so equal due times run in schedule order.
        var low = 0
        var high = queue.count
        while low < high {
            let middle = (low + high) / 2
            if queue[middle].due <= due { low = middle + 1 } else { high = middle }
        }
        queue.insert((due, sequence, work), at: low)
        return work
    }

    /// Moves virtual time forward by `duration`, running every action due by then, in due-time order.
    ///
    /// Actions scheduled by those actions also run if they fall due within the window.
    ///
    /// - Parameter duration: How far to move the clock; negative counts as zero.
    public func advance(by duration: Duration = .zero) {
        let target = now + max(duration, .zero)
        while let first = queue.first, first.due <= target {
            queue.removeFirst()
            now = max(now, first.due)
            first.work.run()
        }
        now = target
    }

    /// Runs every scheduled action, including ones they schedule, moving the clock to each due time.
    public func run() {
        while let first = queue.first {
            queue.removeFirst()
            now = max(now, first.due)
            first.work.run()
        }
    }
}
