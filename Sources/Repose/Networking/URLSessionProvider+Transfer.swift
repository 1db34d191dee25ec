import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSessionProvider.SessionDelegate {
    /// What the provider keeps for one task while it runs.
    ///
    /// `@unchecked Sendable`: its variables are only touched under the delegate's lock; its constants never change.
    final class Transfer: @unchecked Sendable {
        /// The most body bytes reserved up front on the word of a `Content-Length` header.
        private static let maximumReservation: Int64 = 16 * 1024 * 1024
        /// Progress is worth a report once this many bytes moved since the last one, or a sixteenth of the
        /// transfer if that is more: enough for a progress bar, and few enough that reports cost nothing.
        private static let minimumReportStep: Int64 = 64 * 1024
        /// Bytes that moved are worth a report anyway once this long passed since the last one, so that a slow body
        /// moves the progress while it arrives instead of in one step at its end (rule W7).
        private static let maximumReportGap: UInt64 = 100_000_000  // nanoseconds: a tenth of a second

        let progress: ProgressHandler
        let completion: CompletionHandler
        /// The most body bytes this transfer accepts.
        let maximumSize: Int
        private var body = Data()
        private var sample = TransferProgress()
        private var reportedBytes: Int64 = 0
        /// The monotonic clock, in nanoseconds; tests pass one they move by hand.
        private let clock: @Sendable () -> UInt64
        /// When the last report was taken, on `clock`.
        private var reportedAt: UInt64
        private var hasNewSample = false
        private var isReportScheduled = false
        /// Reports scheduled on the delivery queue whose progress call has not returned yet; the completion may
        /// skip that queue only when this is zero, or it could overtake them.
        private(set) var reportsInFlight = 0
        /// The response of a credentials challenge the provider gave up, to deliver instead of the cancellation.
        var unansweredChallenge: URLResponse?

        /// The upload's length when Repose knows it and URLSession may not (a streamed body sent chunked).
        private let uploadSize: Int64?
        /// The request's body, to send again when a redirect keeps it (rule W1).
        let replayableBody: URLSessionProvider.ReplayableBody?
        /// How many redirects this transfer followed, across the tasks that carried it.
        var redirectCount = 0
        /// What the platform measured of the task's last transaction (Apple platforms; Linux reports nothing).
        var connection: ConnectionMetrics?
        var isFromCache = false
        /// Set when the transfer must fail though its task completes without an error (too many redirects).
        var redirectFailure: (any Error)?
        /// The request a refused redirect must send next, with its body: the task that got the redirect completes,
        /// and `follow` sends this on a new task that keeps this transfer (see `willPerformHTTPRedirection`).
        var pendingRedirect: URLRequest?
        /// Sends a request on a new task registered with this transfer; set by the provider where it can.
        var follow: (@Sendable (URLRequest) -> Void)?

        init(
            maximumSize: Int, uploadSize: Int64? = nil, replayableBody: URLSessionProvider.ReplayableBody? = nil,
            clock: @escaping @Sendable () -> UInt64 = { DispatchTime.now().uptimeNanoseconds },
            progress: @escaping ProgressHandler, completion: @escaping CompletionHandler
        ) {
            self.clock = clock
            self.reportedAt = clock()
            self.maximumSize = maximumSize
            self.uploadSize = uploadSize
            self.replayableBody = replayableBody
            self.progress = progress
            self.completion = completion
        }

        /// Forgets what the task before a redirect received, so the next task starts afresh. Progress reported
        /// so far stays reported: Repose's progress never goes back.
        func restart() {
            body = Data()
            sample = TransferProgress()
            reportedBytes = 0
            hasNewSample = false
        }

        /// Advances the upload progress; returns whether the new sample is worth a report now.
        func recordSent(_ total: Int64, expected: Int64) -> Bool {
            guard total > sample.bytesSent else { return false }
            sample.bytesSent = total
            if let known = expected > 0 ? expected : uploadSize {
                sample.bytesExpectedToSend = max(known, total)
            }
            hasNewSample = true
            return movedEnough()
        }

        /// Whether `count` more body bytes keep the body within ``maximumSize``.
        func canReceive(_ count: Int) -> Bool {
            Int64(count) <= Int64(maximumSize) - sample.bytesReceived
        }

        /// Adds a chunk of the body and advances the download progress; returns whether the new sample is worth a
        /// report now.
        func recordReceived(_ data: Data, expected: Int64) -> Bool {
            guard !data.isEmpty else { return false }
            let isFirstChunk = body.isEmpty
            if isFirstChunk {
                // The whole body often arrives at once: keep that chunk instead of copying it.
                body = data
                if expected > Int64(data.count) {
                    body.reserveCapacity(Int(min(expected, Self.maximumReservation, Int64(maximumSize))))
                }
            } else {
                body.append(data)
            }
            sample.bytesReceived += Int64(data.count)
            if expected > 0 {
                sample.bytesExpectedToReceive = max(expected, sample.bytesReceived)
            }
            hasNewSample = true
            // The first bytes of a body still coming show that the download started; a body that arrived whole is
            // reported together with the completion.
            let isComplete = sample.bytesExpectedToReceive == sample.bytesReceived
            return (isFirstChunk && !isComplete) || movedEnough()
        }

        /// Hands the body over, leaving none behind.
        func takeBody() -> Data {
            defer { body = Data() }
            return body
        }

        /// The newest sample if it has not been reported yet; it counts as reported from now on.
        func takeNewSample() -> TransferProgress? {
            guard hasNewSample else { return nil }
            hasNewSample = false
            reportedBytes = sample.bytesSent + sample.bytesReceived
            reportedAt = clock()
            return sample
        }

        /// Whether a caller should schedule a report: `true` unless one is already scheduled, which will carry
        /// the newest sample when it runs.
        func claimReport() -> Bool {
            guard !isReportScheduled else { return false }
            isReportScheduled = true
            reportsInFlight += 1
            return true
        }

        /// The sample for a scheduled report that is now running.
        func releaseReport() -> TransferProgress? {
            isReportScheduled = false
            return takeNewSample()
        }

        /// A scheduled report's progress call has returned.
        func reportDelivered() {
            reportsInFlight -= 1
        }

        private func movedEnough() -> Bool {
            let total = (sample.bytesExpectedToSend ?? 0) + (sample.bytesExpectedToReceive ?? 0)
            let step = max(Self.minimumReportStep, total / 16)
            let moved = sample.bytesSent + sample.bytesReceived - reportedBytes
            return moved >= step
                || (moved > 0 && clock() &- reportedAt >= Self.maximumReportGap)
        }
    }
}
