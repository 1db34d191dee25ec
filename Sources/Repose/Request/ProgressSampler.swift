import Foundation

/// Turns a request's elapsed time and its provider's byte counts into a single 0–1 progress value, reporting at
/// most once per interval.
///
/// Progress has two parts. While nothing of the response has arrived, the request is waiting, and its progress
/// grows with time toward ``waitingShare`` (a quarter-second wait shows little, a slow server a bar that keeps
/// moving), like the original library's. Once the response starts, the wait's part is fixed where it stands and
/// the bytes fill the rest. Time is read from the service's clock, and the ``ProgressTicker`` asks for the waiting
/// part, so there is no timer per request.
///
/// A value: the request's ``MainActorHandoff`` keeps it under its own lock, so a request allocates no sampler and
/// no second lock (three allocations of the forty-odd a stubbed load made).
struct ProgressSampler {
    /// The part of the bar that waiting for the response may fill.
    static let waitingShare = 0.3
    /// How fast waiting fills its share: half of what is left of it every this many seconds.
    static let waitingHalfLife = 1.0
    /// The waiting part counts as levelled off once it is within this fraction of its share: no tick is worth it.
    static let waitingLevel = 0.99
    /// The smallest growth worth reporting from a tick: half a percent of the bar, so that ticks late in a long
    /// wait, which move it less than that, cost no report.
    static let waitingStep = 0.005

    private let minimumInterval: TimeInterval
    /// The service's clock: sampling follows the same time as everything else, virtual time included.
    private let now: @Sendable () -> TimeInterval
    private let start: TimeInterval
    private var lastReportTime: TimeInterval = -.infinity
    private var lastFraction = 0.0
    private var transfer = 0.0
    /// The waiting part, fixed once the response started; nil while waiting.
    private var waited: Double?

    init(minimumInterval: TimeInterval, now: @escaping @Sendable () -> TimeInterval) {
        self.minimumInterval = minimumInterval
        self.now = now
        self.start = now()
    }

    /// The value to report for `sample`, or nil when it is too soon or nothing grew.
    mutating func report(_ sample: TransferProgress) -> Double? {
        // A finished download is the last sample before the completion, which follows at once and makes the
        // progress 1: reporting it too would cost a hop to the main actor of its own, for nothing. Nor is the clock
        // read for it (every response ends with one); the wait just counts as over.
        if let expected = sample.bytesExpectedToReceive, expected > 0, sample.bytesReceived >= expected {
            if waited == nil { waited = 0 }
            return nil
        }
        let time = now()
        let responseStarted = sample.bytesReceived > 0 || sample.bytesExpectedToReceive != nil
        if responseStarted, waited == nil { waited = Self.waitingPart(after: time - start) }
        transfer = max(transfer, Self.fraction(of: sample))
        return report(at: time)
    }

    /// The value to report for the time spent waiting so far, or nil when it is too soon or nothing grew; and
    /// whether the request still waits for its response with room to grow, so that ticking it is worth it.
    mutating func reportWaiting() -> (fraction: Double?, isWaiting: Bool) {
        guard waited == nil else { return (nil, false) }
        let time = now()
        let part = Self.waitingPart(after: time - start)
        return (report(at: time, step: Self.waitingStep), part < Self.waitingShare * Self.waitingLevel)
    }

    private mutating func report(at time: TimeInterval, step: Double = 0) -> Double? {
        let wait = waited ?? Self.waitingPart(after: time - start)
        let fraction = min(wait + (1 - wait) * transfer, 0.999)
        guard fraction > lastFraction + step, time - lastReportTime >= minimumInterval else { return nil }
        lastFraction = fraction
        lastReportTime = time
        return fraction
    }

    /// The waiting part after `elapsed` seconds: 0 at first, half of ``waitingShare`` after one half-life, then
    /// ever closer to it.
    static func waitingPart(after elapsed: TimeInterval) -> Double {
        guard elapsed > 0 else { return 0 }
        return waitingShare * (1 - pow(2, -elapsed / waitingHalfLife))
    }

    /// Upload and download each count for half when there is a body to send; otherwise the download is all.
    /// Never 1: only completion makes a request's progress 1.
    static func fraction(of sample: TransferProgress) -> Double {
        func part(_ done: Int64, _ expected: Int64?) -> Double {
            guard let expected, expected > 0 else { return 0 }
            return min(Double(done) / Double(expected), 1)
        }
        let download = part(sample.bytesReceived, sample.bytesExpectedToReceive)
        let overall: Double
        if let toSend = sample.bytesExpectedToSend, toSend > 0 {
            overall = 0.5 * part(sample.bytesSent, toSend) + 0.5 * download
        } else {
            overall = download
        }
        return min(overall, 0.999)
    }
}
