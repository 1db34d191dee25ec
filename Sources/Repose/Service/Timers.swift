import Foundation

// The service's time: its one clock, its timers, and the one tick that moves requests' progress with it. A load reads
// the clock and joins the tick, so the three share a file.

/// The service's one source of time: its scheduler. Every timestamp (data, errors, cancellations, progress
/// sampling) and every timer reads it, so a test on a ``TestScheduler`` sees virtual time everywhere.
enum ServiceClock {
    /// Seconds since 1970, read from `scheduler`.
    ///
    /// A virtual scheduler's time is taken as is: a test that wants dates starts it at, say, `.seconds(1000)`. A
    /// real one counts from an origin of its own, so the date is read once, here, to place that origin; after that
    /// the clock advances with the scheduler alone, and never jumps when the device's date is changed.
    static func reading(_ scheduler: any Scheduler & Sendable) -> @Sendable () -> TimeInterval {
        if scheduler.usesVirtualTime {
            return { seconds(scheduler.now) }
        }
        let origin = Date().timeIntervalSince1970 - seconds(scheduler.now)
        return { origin + seconds(scheduler.now) }
    }

    static func seconds(_ duration: Duration) -> TimeInterval {
        let (whole, attoseconds) = duration.components
        return TimeInterval(whole) + TimeInterval(attoseconds) / 1e18
    }
}

/// Something that wants to act at a time on the service's clock: a resource's next poll, a state that must say its
/// data turned stale.
@MainActor
protocol DeadlineTarget: AnyObject {
    /// Called once the service clock reaches a time this target asked for. A target asks again whenever its wishes
    /// change, so it checks here whether the time is still one it wants (older requests are not withdrawn).
    func deadlineArrived(now: TimeInterval)
}

/// The service's one timer service: every wait in Repose goes through it, on the service's scheduler, so a test
/// drives all of them with virtual time, and seconds become a `Duration` in one place (``duration(seconds:)``).
///
/// Two kinds of wait:
/// - **One-off actions**, ``after(seconds:_:)`` and ``after(_:_:)``: retry backoff, an event stream's reconnect,
///   a credential refresh's time limit, a delayed ``Resource/cancelLoadIfUnobserved(afterDelay:then:)``, the
///   end-of-turn flush of reloads after writes (a zero wait), progress ticks. Each is one piece of work on the
///   scheduler, so actions due at the same time run in the order they were asked for, as they always have. The
///   action runs on the main actor; the returned ``TimerToken`` cancels it. For example, a retry:
///
///   ```swift
///   retryTimer = resource.core.timers.after(seconds: delay) { [weak self] in self?.send() }
///   // and when the request is cancelled:
///   retryTimer?.cancel()
///   ```
/// - **Deadlines**, ``add(_:for:)``: times on the service clock that resources and state feeds want to be told
///   about (a poll, data turning stale). All of them wait behind a single piece of work for the earliest, however
///   many resources poll or watch for staleness, so nothing runs on the main actor between due times. A target
///   whose wishes changed asks again and ignores the call it no longer wants; a target that wants nothing more (a
///   state whose last observer left) withdraws, so that no timer stays armed for it. Asking costs O(log n),
///   withdrawing O(n); the service pays only while resources poll or states are observed.
@MainActor
final class Timers {
    private struct Entry {
        let time: TimeInterval
        weak var target: (any DeadlineTarget)?
    }

    private let scheduler: any Scheduler & Sendable
    private let now: @Sendable () -> TimeInterval
    /// The deadlines: a binary min-heap on `time`.
    private var heap: [Entry] = []
    /// The one piece of work waiting for the earliest deadline, and the time it is for.
    private var armed: (time: TimeInterval, token: TimerToken)?

    init(scheduler: any Scheduler & Sendable, now: @escaping @Sendable () -> TimeInterval) {
        self.scheduler = scheduler
        self.now = now
    }

    // MARK: One-off actions

    /// Runs `action` on the main actor once `seconds` have passed on the service's clock, unless the returned
    /// token is cancelled first. A negative or NaN wait runs it as soon as possible.
    @discardableResult
    func after(seconds: TimeInterval, _ action: @escaping @MainActor () -> Void) -> TimerToken {
        after(Self.duration(seconds: seconds), action)
    }

    /// Runs `action` on the main actor once `delay` has passed on the service's clock, unless the returned token
    /// is cancelled first. A zero delay runs it after the current main-actor turn.
    @discardableResult
    func after(_ delay: Duration, _ action: @escaping @MainActor () -> Void) -> TimerToken {
        // The service's scheduler runs its work on the main actor: MainScheduler on the main queue, TestScheduler
        // when a test advances it from the main actor. This is the one place Repose relies on that.
        TimerToken(work: scheduler.schedule(after: delay) { MainActor.assumeIsolated { action() } })
    }

    /// The one conversion from seconds to a `Duration`: whole nanoseconds, rounded up, so that a wait never ends
    /// before the time it was computed for (deadlines compare the clock with the time they asked for). A negative
    /// or NaN wait is zero, and an infinite or absurd one (a server's header, say) a billion seconds, which would
    /// otherwise trap as an integer.
    nonisolated static func duration(seconds: TimeInterval) -> Duration {
        guard seconds > 0 else { return .zero }
        return .nanoseconds(Int64((min(seconds, 1e9) * 1e9).rounded(.up)))
    }

    // MARK: Deadlines

    /// How many deadlines wait, withdrawn ones included. For tests.
    var count: Int { heap.count }

    /// Calls `target` once the clock reaches `time`, or soon after.
    func add(_ time: TimeInterval, for target: any DeadlineTarget) {
        heap.append(Entry(time: time, target: target))
        siftUp(heap.count - 1)
        armForEarliest()
    }

    /// Withdraws every request of `target`, and of targets that are gone (rule R7: a state's last observer left,
    /// so its "now stale" time is no longer wanted). When nothing is left to wait for, the scheduler's work is
    /// cancelled too, so no timer outlives the last wish; otherwise it is armed for the earliest wish left.
    func withdraw(_ target: any DeadlineTarget) {
        let count = heap.count
        heap.removeAll { $0.target == nil || $0.target === target }
        guard heap.count != count else { return }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) {
            siftDown(index)
        }
        if let armed, armed.time < (heap.first?.time ?? .infinity) {
            armed.token.cancel()
            self.armed = nil
        }
        armForEarliest()
    }

    private func armForEarliest() {
        guard let earliest = heap.first?.time else { return }
        if let armed, armed.time <= earliest { return }
        armed?.token.cancel()
        let token = after(seconds: earliest - now()) { [weak self] in self?.fire() }
        armed = (earliest, token)
    }

    private func fire() {
        armed = nil
        let current = now()
        var due: [any DeadlineTarget] = []
        while let first = heap.first, first.time <= current {
            if let target = first.target { due.append(target) }
            removeFirst()
        }
        armForEarliest()
        for target in due {
            target.deadlineArrived(now: current)
        }
    }

    // MARK: Heap

    private func removeFirst() {
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        siftDown(0)
    }

    private func siftDown(_ start: Int) {
        var index = start
        while true {
            let left = 2 * index + 1
            let right = left + 1
            var smallest = index
            if left < heap.count, heap[left].time < heap[smallest].time { smallest = left }
            if right < heap.count, heap[right].time < heap[smallest].time { smallest = right }
            guard smallest != index else { return }
            heap.swapAt(index, smallest)
            index = smallest
        }
    }

    private func siftUp(_ start: Int) {
        var index = start
        while index > 0 {
            let parent = (index - 1) / 2
            guard heap[index].time < heap[parent].time else { return }
            heap.swapAt(index, parent)
            index = parent
        }
    }
}

/// A one-off action waiting in ``Timers``: cancel it to keep it from running.
struct TimerToken {
    fileprivate let work: ScheduledWork

    /// Keeps the action from running, if it has not run yet.
    func cancel() {
        work.cancel()
    }
}

/// One repeating tick per service that moves the progress of the requests under way: the original library gave every
/// request a timer of its own. It runs only while some request is ticking, on the service's timers (virtual time in
/// tests), and a burst of requests shares one scheduled tick.
@MainActor
final class ProgressTicker {
    /// How often progress may move with time: ten steps a second are plenty for a bar.
    static let interval: Duration = .milliseconds(100)

    private let timers: Timers
    /// Held strongly: a request leaves when it completes or is cancelled. Keyed by identity, so that leaving costs
    /// constant time however many requests are answered in one turn.
    private var entries: [ObjectIdentifier: NetworkRequest] = [:]
    private var scheduledTick: TimerToken?
    /// Set when the scheduler ran the tick while it was being scheduled (an immediate scheduler): time does not pass
    /// there, so ticking again would never end.
    private var runsActionsAtOnce = false
    private var isScheduling = false

    init(timers: Timers) {
        self.timers = timers
    }

    /// A tick already scheduled stays, for the requests that follow within an interval.
    func add(_ request: NetworkRequest) {
        entries[ObjectIdentifier(request)] = request
        scheduleTick()
    }

    func remove(_ request: NetworkRequest) {
        entries[ObjectIdentifier(request)] = nil
    }

    private func scheduleTick() {
        guard scheduledTick == nil, !runsActionsAtOnce, !entries.isEmpty else { return }
        isScheduling = true
        // The one call site of the progress tick. It holds the ticker weakly, so a service that goes away leaves
        // nothing to tick.
        let work = timers.after(Self.interval) { [weak self] in self?.tick() }
        if !runsActionsAtOnce { scheduledTick = work }
        isScheduling = false
    }

    private func tick() {
        guard !isScheduling else {
            runsActionsAtOnce = true
            return
        }
        scheduledTick = nil
        // Ticking calls progress hooks, which may start requests (ticked from the next tick on: the loop goes over
        // the entries as they were) or end them (a request that left ticks no more).
        for (key, request) in entries where !request.tick() {
            entries[key] = nil
        }
        scheduleTick()
    }
}
