import Foundation

/// Turns a provider's byte counts into a single 0–1 progress value, reporting at most once per interval.
///
/// No timer: a sample is reported when bytes move and enough time has passed since the last report. Safe to share
/// because its one piece of mutable state is guarded by a lock; it never calls out while holding it.
final class ProgressSampler: @unchecked Sendable {
    private let lock = NSLock()
    private let minimumInterval: TimeInterval
    /// The service's clock: sampling follows the same time as everything else, virtual time included.
    private let now: @Sendable () -> TimeInterval
    private var lastReportTime: TimeInterval = -.infinity
    private var lastFraction = 0.0

    init(minimumInterval: TimeInterval, now: @escaping @Sendable () -> TimeInterval) {
        self.minimumInterval = minimumInterval
        self.now = now
    }

    /// The value to report for `sample`, or nil when it is too soon or nothing grew.
    func report(_ sample: TransferProgress) -> Double? {
        // A finished download is the last sample before the completion, which follows at once and makes the
        // progress 1: reporting it too would cost a hop to the main actor of its own, for nothing.
        if let expected = sample.bytesExpectedToReceive, expected > 0, sample.bytesReceived >= expected {
            return nil
        }
        let fraction = Self.fraction(of: sample)
        let time = now()
        lock.lock()
        defer { lock.unlock() }
        guard fraction > lastFraction, time - lastReportTime >= minimumInterval else { return nil }
        lastFraction = fraction
        lastReportTime = time
        return fraction
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
