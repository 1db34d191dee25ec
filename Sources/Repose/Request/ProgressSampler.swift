import Foundation

/// Turns a request's elapsed time and its provider's byte counts into a single 0–1 progress value, reporting at
/// most once per interval.
///
/// Progress has two parts. While nothing of the response has arrived, the request is waiting, and its progress
/// grows with time toward ``waitingShare`` (a quarter-second wait shows little, a slow server a bar that keeps
/// moving), like the original library's. Once the response starts, the wait's part is fixed where it stands and
/// the bytes fill the rest: their share of the announced length, or, with no length announced, an estimate that
/// grows with the bytes and never reaches the end. While the body comes, time moves the bar too (rule W7): every
/// tick takes it a little closer to the end, so a slow body, or one of unknown length, never stands still, and
/// bytes that arrive move it further. It reaches 1 only when the request completes. Time is read from the service's
/// clock, and the ``ProgressTicker`` asks for the time-driven part, so there is no timer per request.
///
/// A value: the request's ``MainActorHandoff`` keeps it under its own lock, so a request allocates no sampler and
/// no second lock.
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
    /// While the body comes, time closes half the distance to the end every this many seconds, without bytes.
    static let bodyHalfLife = 8.0
    /// With no length announced, this many bytes count as half the body: an estimate that keeps growing.
    static let unknownLengthHalf = 256.0 * 1024
    /// Nothing below completion shows more than this.
    static let ceiling = 0.999

    private let minimumInterval: TimeInterval
    /// The service's clock: sampling follows the same time as everything else, virtual time included.
    private let now: @Sendable () -> TimeInterval
    private let start: TimeInterval
    private var lastReportTime: TimeInterval = -.infinity
    private var lastFraction = 0.0
    private var transfer = 0.0
    /// The waiting part, fixed once the response started; nil while waiting.
    private var waited: Double?
    /// When time last moved the bar while the body comes.
    private var creptAt: TimeInterval = 0

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
        if responseStarted, waited == nil {
            waited = Self.waitingPart(after: time - start)
            creptAt = time
        }
        transfer = max(transfer, Self.fraction(of: sample))
        return report(at: time)
    }

    /// The value to report for the time that passed while the body comes, or nil when it is too soon; and whether
    /// ticking it is still worth it: always, until the request completes (rule W7).
    private mutating func reportBody(waited: Double) -> (fraction: Double?, isWaiting: Bool) {
        let time = now()
        let from = max(lastFraction, waited + (1 - waited) * transfer)
        let moved = (Self.ceiling - from) * (1 - pow(2, -(time - creptAt) / Self.bodyHalfLife))
        guard time - lastReportTime >= minimumInterval, moved > 0 else { return (nil, true) }
        creptAt = time
        lastFraction = min(from + moved, Self.ceiling)
        lastReportTime = time
        return (lastFraction, true)
    }

    /// The value to report for the time spent so far, or nil when it is too soon or nothing grew; and whether
    /// ticking is still worth it: while the request waits for its response with room to grow, and while its body
    /// comes.
    mutating func reportWaiting() -> (fraction: Double?, isWaiting: Bool) {
        if let waited { return reportBody(waited: waited) }
        let time = now()
        let part = Self.waitingPart(after: time - start)
        return (report(at: time, step: Self.waitingStep), part < Self.waitingShare * Self.waitingLevel)
    }

    private mutating func report(at time: TimeInterval, step: Double = 0) -> Double? {
        let wait = waited ?? Self.waitingPart(after: time - start)
        let fraction = min(wait + (1 - wait) * transfer, Self.ceiling)
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
            guard let expected, expected > 0 else {
                // No length: an estimate that grows with every byte and never reaches the end.
                return done > 0 ? Double(done) / (Double(done) + unknownLengthHalf) : 0
            }
            return min(Double(done) / Double(expected), 1)
        }
        let download = part(sample.bytesReceived, sample.bytesExpectedToReceive)
        let overall: Double
        if let toSend = sample.bytesExpectedToSend, toSend > 0 {
            overall = 0.5 * part(sample.bytesSent, toSend) + 0.5 * download
        } else {
            overall = download
        }
        return min(overall, ceiling)
    }
}
