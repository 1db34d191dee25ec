import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSessionProvider {
    /// The delegate of a session the provider owns: collects each task's body, reports its progress and
    /// completes it, finding the task's state by its identifier.
    ///
    /// `@unchecked Sendable`: `transfers`, and every variable of the ``Transfer`` objects in it, is only touched
    /// under `lock`. Callbacks to Repose run after the lock is released, never under it.
    final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        typealias ProgressHandler = @Sendable (TransferProgress) -> Void
        typealias CompletionHandler = @Sendable (Result<NetworkResponse, any Error>) -> Void

        /// Bodies up to this size complete in place even when reporting otherwise hops to `delivery`: the hop
        /// costs more than what Repose does with a small body (about a tenth of a 1 KB loopback GET), and a small
        /// body holds the network queue only briefly. Larger bodies hop, so that parsing them never stalls the
        /// session's other transfers.
        static let inPlaceCompletionLimit = 64 * 1024

        private let lock = NSLock()
        private var transfers: [Int: Transfer] = [:]
        /// Where progress and completion are reported when the delegate itself runs on the session's network
        /// queue; `nil` when it already runs on a queue of its own and reports in place.
        let delivery: DispatchQueue?

        init(delivery: DispatchQueue?) {
            self.delivery = delivery
        }

        /// How many tasks have state here: started and not yet completed.
        var activeTransferCount: Int {
            lock.withLock { transfers.count }
        }

        func register(
            _ task: URLSessionTask, progress: @escaping ProgressHandler, completion: @escaping CompletionHandler
        ) {
            let transfer = Transfer(progress: progress, completion: completion)
            lock.withLock { transfers[task.taskIdentifier] = transfer }
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
            totalBytesExpectedToSend: Int64
        ) {
            let worthReporting = lock.withLock { () -> Transfer? in
                guard let transfer = transfers[task.taskIdentifier],
                    transfer.recordSent(totalBytesSent, expected: totalBytesExpectedToSend)
                else { return nil }
                return transfer
            }
            if let worthReporting {
                report(worthReporting)
            }
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let expected = dataTask.countOfBytesExpectedToReceive  // A plain read; `response` would synchronise.
            let worthReporting = lock.withLock { () -> Transfer? in
                guard let transfer = transfers[dataTask.taskIdentifier],
                    transfer.recordReceived(data, expected: expected)
                else { return nil }
                return transfer
            }
            if let worthReporting {
                report(worthReporting)
            }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            // Removing the state under the lock is what makes completion happen exactly once, cancelled or not.
            let finished = lock.withLock { () -> (Transfer, Data, URLResponse?, Bool)? in
                guard let transfer = transfers.removeValue(forKey: task.taskIdentifier) else { return nil }
                return (transfer, transfer.takeBody(), transfer.unansweredChallenge, transfer.reportsInFlight > 0)
            }
            guard let (transfer, body, unansweredChallenge, hasReportsInFlight) = finished else { return }
            let result: Result<NetworkResponse, any Error>
            if let unansweredChallenge {
                result = URLSessionProvider.result(response: unansweredChallenge, body: body, error: nil)
            } else {
                result = URLSessionProvider.result(response: task.response, body: body, error: error)
            }
            // Progress not reported yet goes out just before the completion, in the same hop.
            let finish: @Sendable () -> Void = { [lock] in
                if let sample = lock.withLock({ transfer.takeNewSample() }) {
                    transfer.progress(sample)
                }
                transfer.completion(result)
            }
            // A report still waiting on `delivery` must not be overtaken: then the completion queues behind it.
            if let delivery, hasReportsInFlight || body.count > Self.inPlaceCompletionLimit {
                delivery.async(execute: finish)
            } else {
                finish()
            }
        }

        /// Reports a transfer's newest sample: in place, or, when reporting hops to `delivery`, by scheduling one
        /// report unless one is already on its way (that one will carry the newest sample).
        private func report(_ transfer: Transfer) {
            guard let delivery else {
                if let sample = lock.withLock({ transfer.takeNewSample() }) {
                    transfer.progress(sample)
                }
                return
            }
            guard lock.withLock({ transfer.claimReport() }) else { return }
            delivery.async { [lock] in
                if let sample = lock.withLock({ transfer.releaseReport() }) {
                    transfer.progress(sample)
                }
                lock.withLock { transfer.reportDelivered() }
            }
        }

        /// Remembers the response of a task whose credentials challenge the provider is about to cancel, so that
        /// the task completes with that response (a 401, as on Apple platforms) instead of the cancellation.
        func abandonChallenge(on task: URLSessionTask, response: URLResponse?) {
            lock.withLock { transfers[task.taskIdentifier]?.unansweredChallenge = response }
        }
    }
}
