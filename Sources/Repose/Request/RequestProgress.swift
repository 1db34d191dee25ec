import Foundation

/// A request's progress, in one place: bytes and time made into one value from 0 to 1.
///
/// **Bytes** (``ProgressSampler``, on the provider's thread): the attempt counts what was sent and received and
/// passes a sample to the main actor only when it is worth showing: when the first bytes of a body that is still
/// coming arrive, after every sixteenth of the transfer (at least 64 KB), or a tenth of a second after the last
/// sample if bytes moved since; a body that arrives whole is told by its outcome alone.
///
/// **The value** (this type, on the main actor). While nothing of the response has arrived, the request is waiting,
/// and its progress grows with time toward `waitingShare` (a quarter-second wait shows little, a slow server a bar
/// that keeps moving). Once the response starts, the wait's part is fixed where it stands and the bytes fill the
/// rest: their share of the announced length, or, with no length announced, an estimate that grows with the bytes
/// and never reaches the end. While the body comes, time moves the bar too (rule W7): every tick closes part of the
/// distance to the end, so a slow body never stands still. Only completion makes it 1. Time is the service's clock;
/// the service's ``ProgressTicker`` moves the time-driven part, so there is no timer per request.
struct RequestProgress {
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

    let minimumInterval: TimeInterval
    let start: TimeInterval
    private var lastReportTime: TimeInterval = -.infinity
    private var lastFraction = 0.0
    private var transfer = 0.0
    /// The waiting part, fixed once the response started; nil while waiting.
    private var waited: Double?
    /// When time last moved the bar while the body comes.
    private var creptAt: TimeInterval = 0
    /// Whether time still moves the bar: false once a wait has levelled off, until bytes come.
    private(set) var movesWithTime = true

    init(minimumInterval: TimeInterval, start: TimeInterval) {
        self.minimumInterval = minimumInterval
        self.start = start
    }

    /// The value the provider's `sample`, taken at `time`, makes, if it is worth reporting.
    mutating func record(_ sample: TransferProgress, at time: TimeInterval) -> Double? {
        if sample.bytesReceived > 0 || sample.bytesExpectedToReceive != nil, waited == nil {
            waited = Self.waitingPart(after: time - start)
            creptAt = time
        }
        transfer = max(transfer, Self.fraction(of: sample))
        movesWithTime = true  // a wait that had levelled off moves again with its body
        return reportable(at: time)
    }

    /// The value time makes at `time`, if it is worth reporting; afterwards ``movesWithTime`` says whether ticking
    /// is still worth it.
    mutating func tick(at time: TimeInterval) -> Double? {
        guard let waited else {
            defer { movesWithTime = Self.waitingPart(after: time - start) < Self.waitingShare * Self.waitingLevel }
            return reportable(at: time, step: Self.waitingStep)
        }
        let from = max(lastFraction, waited + (1 - waited) * transfer)
        let moved = (Self.ceiling - from) * (1 - pow(2, -(time - creptAt) / Self.bodyHalfLife))
        guard time - lastReportTime >= minimumInterval, moved > 0 else { return nil }
        creptAt = time
        lastFraction = min(from + moved, Self.ceiling)
        lastReportTime = time
        return lastFraction
    }

    private mutating func reportable(at time: TimeInterval, step: Double = 0) -> Double? {
        let wait = waited ?? Self.waitingPart(after: time - start)
        let fraction = min(wait + (1 - wait) * transfer, Self.ceiling)
        guard fraction > lastFraction + step, time - lastReportTime >= minimumInterval else { return nil }
        lastFraction = fraction
        lastReportTime = time
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

/// The bytes of one attempt as they move, and which samples of them are worth a trip to the main actor. Kept by the
/// attempt under its lock.
struct ProgressSampler {
    /// Progress is worth a report once this many bytes moved since the last one, or a sixteenth of the transfer if
    /// that is more: enough for a progress bar, and few enough that reports cost nothing.
    private static let minimumStep: Int64 = 64 * 1024
    /// Bytes that moved are worth a report anyway once this long passed since the last one, so that a slow body
    /// moves the progress while it arrives instead of in one step at its end (rule W7).
    private static let maximumGap: TimeInterval = 0.1

    private(set) var sample = TransferProgress()
    /// The body's pieces counted; the sample's bytes received are these, or a provider's own count if more.
    private var bodyBytes: Int64 = 0
    private var reportedBytes: Int64 = 0
    private var reportedAt: TimeInterval
    private(set) var hasNewSample = false

    init(at time: TimeInterval) {
        reportedAt = time
    }

    /// The response announced `length` body bytes.
    mutating func expect(_ length: Int?) {
        sample.bytesExpectedToReceive = length.map { Int64($0) }
    }

    /// `count` more body bytes arrived; returns whether the sample is worth a report now.
    mutating func received(_ count: Int, at time: TimeInterval) -> Bool {
        guard count > 0 else { return false }
        let isFirst = bodyBytes == 0
        bodyBytes += Int64(count)
        sample.bytesReceived = max(sample.bytesReceived, bodyBytes)
        if let expected = sample.bytesExpectedToReceive {
            sample.bytesExpectedToReceive = max(expected, sample.bytesReceived)
        }
        hasNewSample = true
        // The first bytes of a body still coming show that the download started; a body that arrived whole is
        // reported together with its outcome.
        return (isFirst && sample.bytesExpectedToReceive != sample.bytesReceived) || movedEnough(at: time)
    }

    /// A provider's own sample; returns whether it is worth a report now. The upload's bytes are sampled as the
    /// body's are; a count of bytes received, which a provider that hands the body over at its end reports when it
    /// has something to say, is worth a report as it comes, but for the last, which the outcome follows at once.
    /// Counts never go back.
    mutating func merge(_ reported: TransferProgress, at time: TimeInterval) -> Bool {
        let before = sample
        sample.bytesSent = max(sample.bytesSent, reported.bytesSent)
        if let expected = reported.bytesExpectedToSend, expected > 0 {
            sample.bytesExpectedToSend = max(expected, sample.bytesSent)
        }
        sample.bytesReceived = max(sample.bytesReceived, reported.bytesReceived)
        if let expected = reported.bytesExpectedToReceive, expected > 0 {
            sample.bytesExpectedToReceive = max(expected, sample.bytesReceived)
        }
        guard sample != before else { return false }
        hasNewSample = true
        if sample.bytesReceived > before.bytesReceived {
            return sample.bytesReceived < sample.bytesExpectedToReceive ?? .max
        }
        return movedEnough(at: time)
    }

    /// Whether the newest sample says the whole announced body arrived.
    var isComplete: Bool {
        guard let expected = sample.bytesExpectedToReceive else { return false }
        return sample.bytesReceived >= expected
    }

    /// The newest sample if it has not been reported yet; it counts as reported from now on.
    mutating func take(at time: TimeInterval) -> TransferProgress? {
        guard hasNewSample else { return nil }
        hasNewSample = false
        reportedBytes = sample.bytesSent + sample.bytesReceived
        reportedAt = time
        return sample
    }

    private func movedEnough(at time: TimeInterval) -> Bool {
        let total = (sample.bytesExpectedToSend ?? 0) + (sample.bytesExpectedToReceive ?? 0)
        let moved = sample.bytesSent + sample.bytesReceived - reportedBytes
        return moved >= max(Self.minimumStep, total / 16) || (moved > 0 && time - reportedAt >= Self.maximumGap)
    }
}
