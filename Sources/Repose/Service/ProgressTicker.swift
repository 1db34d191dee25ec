import Foundation

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
