import Foundation

/// A network request's progress, in one place: bytes and time made into one value from 0 to 1.
///
/// While nothing of the response has arrived, the request is waiting, and its progress grows with time toward
/// `waitingShare` (a quarter-second wait shows little, a slow server a bar that keeps moving). Once the response
/// starts, the wait's part is fixed where it stands and the bytes fill the rest: their share of the announced length,
/// or, with no length announced, an estimate that grows with the bytes and never reaches the end. While the body
/// comes, time moves the bar too (rule W7): every tick closes part of the distance to the end, so a slow body never
/// stands still. Only completion makes it 1. Time is the service's clock; the service's `ProgressTicker` moves the
/// time-driven part, so there is no timer per request.
extension NetworkRequest {
    /// The part of the bar that waiting for the response may fill.
    static let waitingShare = 0.3
    /// How fast waiting fills its share: half of what is left of it every this many seconds.
    static let waitingHalfLife = 1.0
    /// The waiting part counts as levelled off once it is within this fraction of its share: no tick is worth it.
    static let waitingLevel = 0.99
    /// The smallest growth worth a tick's report, so that ticks late in a long wait cost no report.
    static let waitingStep = 0.005
    /// While the body comes, time closes half the distance to the end every this many seconds, without bytes.
    static let bodyHalfLife = 8.0
    /// With no length announced, this many bytes count as half the body: an estimate that keeps growing.
    static let unknownLengthHalf = 256.0 * 1024
    /// Nothing below completion shows more than this.
    static let ceiling = 0.999

    /// Where the current attempt's progress stands.
    struct ProgressState {
        var minimumInterval: TimeInterval = 0
        var start: TimeInterval = 0
        var lastReportTime: TimeInterval = -.infinity
        var lastFraction = 0.0
        var transfer = 0.0
        /// The waiting part, fixed once the response started; nil while waiting.
        var waited: Double?
        /// When time last moved the bar while the body comes.
        var creptAt: TimeInterval = 0
        /// Whether the service's ticker moves this request, and where it keeps it.
        var isTicking = false
        var tickerSlot: Int?
    }

    func startProgress(minimumInterval: TimeInterval) {
        stopProgress()
        progress = ProgressState(minimumInterval: minimumInterval, start: resource.core.now())
        joinTicker()
    }

    func stopProgress() {
        guard progress.isTicking else { return }
        progress.isTicking = false
        resource.core.progressTicker.remove(self)
    }

    /// Ticks again once bytes arrive, if the wait before them had levelled off and left the ticker (rule W7).
    func joinTicker() {
        guard !progress.isTicking else { return }
        progress.isTicking = true
        resource.core.progressTicker.add(self)
    }

    /// Reports the value a provider's `sample`, taken at `time`, makes, if it is worth reporting.
    func report(_ sample: TransferProgress, at time: TimeInterval, to handler: RequestCompletionHandler) {
        if sample.bytesReceived > 0 || sample.bytesExpectedToReceive != nil, progress.waited == nil {
            progress.waited = Self.waitingPart(after: time - progress.start)
            progress.creptAt = time
        }
        progress.transfer = max(progress.transfer, Self.fraction(of: sample))
        if let fraction = reportable(at: time) { handler.broadcastProgress(fraction) }
    }

    /// Moves the progress with time, for the service's ticker; returns whether ticking it is still worth it.
    func tick() -> Bool {
        guard progress.isTicking, let handler, !handler.willIgnore else { return false }
        // A tick's value is broadcast at once: it must not overtake bytes' values still on their way.
        if hasReportInFlight { return true }
        let time = resource.core.now()
        if let waited = progress.waited {
            let from = max(progress.lastFraction, waited + (1 - waited) * progress.transfer)
            let moved = (Self.ceiling - from) * (1 - pow(2, -(time - progress.creptAt) / Self.bodyHalfLife))
            if time - progress.lastReportTime >= progress.minimumInterval, moved > 0 {
                progress.creptAt = time
                progress.lastFraction = min(from + moved, Self.ceiling)
                progress.lastReportTime = time
                handler.broadcastProgress(progress.lastFraction)
            }
            return progress.isTicking
        }
        if let fraction = reportable(at: time, step: Self.waitingStep) { handler.broadcastProgress(fraction) }
        // Levelled off: the ticker lets it go, and its body's first bytes bring it back.
        progress.isTicking =
            Self.waitingPart(after: time - progress.start) < Self.waitingShare * Self.waitingLevel
            && !handler.willIgnore
        return progress.isTicking
    }

    private func reportable(at time: TimeInterval, step: Double = 0) -> Double? {
        let wait = progress.waited ?? Self.waitingPart(after: time - progress.start)
        let fraction = min(wait + (1 - wait) * progress.transfer, Self.ceiling)
        guard fraction > progress.lastFraction + step, time - progress.lastReportTime >= progress.minimumInterval
        else { return nil }
        progress.lastFraction = fraction
        progress.lastReportTime = time
        return fraction
    }

    /// The waiting part after `elapsed` seconds: 0 at first, half of `waitingShare` after one half-life.
    static func waitingPart(after elapsed: TimeInterval) -> Double {
        guard elapsed > 0 else { return 0 }
        return waitingShare * (1 - pow(2, -elapsed / waitingHalfLife))
    }

    /// Upload and download each count for half when there is a body to send; otherwise the download is all.
    static func fraction(of sample: TransferProgress) -> Double {
        func part(_ done: Int64, _ expected: Int64?) -> Double {
            guard let expected, expected > 0 else {
                return done > 0 ? Double(done) / (Double(done) + unknownLengthHalf) : 0
            }
            return min(Double(done) / Double(expected), 1)
        }
        let download = part(sample.bytesReceived, sample.bytesExpectedToReceive)
        guard let toSend = sample.bytesExpectedToSend, toSend > 0 else { return min(download, ceiling) }
        return min(0.5 * part(sample.bytesSent, toSend) + 0.5 * download, ceiling)
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
    /// Held strongly: a request leaves when it completes or is cancelled.
    private var entries: [NetworkRequest] = []
    private var scheduledTick: TimerToken?
    /// Set when the scheduler ran the tick while it was being scheduled (an immediate scheduler): time does not pass
    /// there, so ticking again would never end.
    private var runsActionsAtOnce = false
    private var isScheduling = false

    init(timers: Timers) {
        self.timers = timers
    }

    func add(_ request: NetworkRequest) {
        request.progress.tickerSlot = entries.count
        entries.append(request)
        scheduleTick()
    }

    /// Constant time, the last entry taking the leaver's slot: many requests answered in one turn must not cost time
    /// quadratic in their number. A tick already scheduled stays, for the requests that follow within an interval.
    func remove(_ request: NetworkRequest) {
        guard let slot = request.progress.tickerSlot, slot < entries.count, entries[slot] === request else { return }
        request.progress.tickerSlot = nil
        let last = entries.removeLast()
        if slot < entries.count {
            entries[slot] = last
            last.progress.tickerSlot = slot
        }
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
        // Ticking calls progress hooks, which may start requests (kept for the next tick) or end them.
        let ticked = entries
        entries = []
        for request in ticked {
            request.progress.tickerSlot = nil
        }
        var kept: [NetworkRequest] = []
        for request in ticked where request.tick() {
            kept.append(request)
        }
        let joined = entries
        entries = []
        for request in kept + joined {
            request.progress.tickerSlot = entries.count
            entries.append(request)
        }
        scheduleTick()
    }
}
