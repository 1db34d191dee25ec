import Foundation

/// A request whose progress moves with time while it waits for its response and while its body comes.
@MainActor
protocol ProgressWaiter: AnyObject {
    /// Moves the progress on to the present; returns whether the request still waits (and wants more ticks).
    func tickWaitingProgress() -> Bool
    /// Where the ticker keeps this waiter while it does, so that leaving costs the same however many wait.
    var progressTickerSlot: Int? { get set }
}

/// One repeating tick per service that moves the progress of the requests under way.
///
/// The original library gave every request a 50 ms repeating timer of its own. Here the service has one tick, on
/// its scheduler (virtual time in tests), that runs only while some request is under way: a request joins when it
/// is sent and leaves when it completes, or once its waiting share has levelled off while no response came (it
/// joins again when its body starts: a body's progress moves with time until it completes, rule W7). A burst of
/// requests costs one scheduled tick, not one per request.
@MainActor
final class ProgressTicker {
    /// How often waiting progress may move. The waiting part changes slowly (see `ProgressSampler`), so ten steps
    /// a second are plenty, and with a thousand requests waiting the main actor has less to do than at 50 ms.
    static let interval: Duration = .milliseconds(100)

    private let scheduler: any Scheduler & Sendable
    /// Held strongly: a waiter leaves when its request completes or is cancelled (`NetworkRequestDelegate`), and a
    /// weak reference would cost each request an allocation (its object's side table).
    private var entries: [any ProgressWaiter] = []
    /// The tick waiting in the scheduler, if one is.
    private var scheduledTick: ScheduledWork?
    /// Set when the scheduler ran the tick while it was being scheduled (an immediate scheduler): time does not
    /// pass there, so ticking again would never end.
    private var runsActionsAtOnce = false
    private var isScheduling = false

    init(scheduler: any Scheduler & Sendable) {
        self.scheduler = scheduler
    }

    /// Starts ticking `waiter` until it says it no longer waits, or ``remove(_:)``.
    func add(_ waiter: any ProgressWaiter) {
        append(waiter)
        scheduleTick()
    }

    private func append(_ waiter: any ProgressWaiter) {
        waiter.progressTickerSlot = entries.count
        entries.append(waiter)
    }

    /// Stops ticking `waiter`. A tick already scheduled stays: it ends by itself if nobody waits when it comes,
    /// and requests that follow one another within an interval share it instead of each scheduling one, with the
    /// allocations that takes.
    ///
    /// Constant time: the last waiter takes the leaver's slot. A search of the list made many requests answered in
    /// one turn cost time quadratic in their number.
    func remove(_ waiter: any ProgressWaiter) {
        // A slot from before the current tick's reset no longer names this waiter: the identity check says so.
        guard let slot = waiter.progressTickerSlot, slot < entries.count, entries[slot] === waiter else { return }
        waiter.progressTickerSlot = nil
        let last = entries.removeLast()
        if slot < entries.count {
            entries[slot] = last
            last.progressTickerSlot = slot
        }
    }

    /// Whether some request waits for its response, so that a tick is on its way.
    var hasWaiters: Bool { !entries.isEmpty }

    private func scheduleTick() {
        guard scheduledTick == nil, !runsActionsAtOnce, !entries.isEmpty else { return }
        isScheduling = true
        // The service's scheduler runs actions on the main actor (see `Resource.cancelLoadIfUnobserved`), and
        // the tick holds the ticker weakly: a service that goes away leaves nothing to tick.
        let work = scheduler.schedule(after: Self.interval) { [weak self] in
            MainActor.assumeIsolated { self?.tick() }
        }
        if !runsActionsAtOnce { scheduledTick = work }
        isScheduling = false
    }

    private func tick() {
        guard !isScheduling else {
            runsActionsAtOnce = true
            return
        }
        scheduledTick = nil
        // Ticking calls progress hooks, which may add waiters (kept for the next tick) or end requests (which
        // then report that they no longer wait, at the latest on the next tick).
        // Loops rather than `filter`: a main-actor closure passed to it is checked for isolation on every call.
        let ticked = entries
        entries = []
        for waiter in ticked {
            waiter.progressTickerSlot = nil
        }
        var kept: [any ProgressWaiter] = []
        for waiter in ticked where waiter.tickWaitingProgress() {
            kept.append(waiter)
        }
        let joined = entries
        entries = []
        for waiter in kept + joined {
            append(waiter)
        }
        scheduleTick()
    }
}
