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
        /// costs more than what Repose does with a small body, and a small body holds the network queue only
        /// briefly. Larger bodies hop, so that parsing them never stalls the session's other transfers.
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
            _ task: URLSessionTask, maximumSize: Int, uploadSize: Int64? = nil, progress: @escaping ProgressHandler,
            completion: @escaping CompletionHandler
        ) {
            register(
                task,
                Transfer(maximumSize: maximumSize, uploadSize: uploadSize, progress: progress, completion: completion))
        }

        /// Runs `body` with `task`'s transfer under the lock; `nil` when the task has no state here.
        func withTransfer<Value>(of task: URLSessionTask, _ body: (Transfer) -> Value) -> Value? {
            lock.withLock { transfers[task.taskIdentifier].map(body) }
        }

        /// Keeps `transfer` as the state of `task`: a new one, or one that a redirect moved to a new task.
        func register(_ task: URLSessionTask, _ transfer: Transfer) {
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

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
        ) {
            // The announced length is checked here, before any body arrives. (swift-corelibs-foundation ignores the
            // disposition; `abandon` cancels the task there.) A `Content-Length` counts encoded bytes, which for
            // gzip are fewer than the decoded ones that the limit counts: a body announced too large is too large.
            // Answers that never carry a body (to a HEAD, a 204, a 304) announce the size of one that is not sent.
            let status = (response as? HTTPURLResponse)?.statusCode
            let carriesBody = dataTask.originalRequest?.httpMethod != "HEAD" && status != 204 && status != 304
            let announced = carriesBody ? response.expectedContentLength : -1
            let tooLarge = lock.withLock { () -> Transfer? in
                guard let transfer = transfers[dataTask.taskIdentifier], transfer.pendingRedirect == nil,
                    announced > transfer.maximumSize
                else {
                    return nil
                }
                return transfers.removeValue(forKey: dataTask.taskIdentifier)
            }
            guard let tooLarge else {
                completionHandler(.allow)
                return
            }
            completionHandler(.cancel)
            abandon(
                dataTask, tooLarge, failingWith: RequestError.Cause.ResponseTooLarge(maximumSize: tooLarge.maximumSize))
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let expected = dataTask.countOfBytesExpectedToReceive  // A plain read; `response` would synchronise.
            let outcome = lock.withLock { () -> (Transfer, isTooLarge: Bool)? in
                // The body of a redirect the provider follows itself is not the response's.
                guard let transfer = transfers[dataTask.taskIdentifier], transfer.pendingRedirect == nil else {
                    return nil
                }
                guard transfer.canReceive(data.count) else {
                    // Forgotten at once: later chunks of this task find no state and are dropped.
                    transfers.removeValue(forKey: dataTask.taskIdentifier)
                    return (transfer, true)
                }
                return transfer.recordReceived(data, expected: expected) ? (transfer, false) : nil
            }
            guard let (transfer, isTooLarge) = outcome else { return }
            if isTooLarge {
                let error = RequestError.Cause.ResponseTooLarge(maximumSize: transfer.maximumSize)
                abandon(dataTask, transfer, failingWith: error)
            } else {
                report(transfer)
            }
        }

        /// The platform's measurements of `task` (Apple platforms call this just before the task completes; Linux's
        /// Foundation never does): how its connection was made and whether `URLCache` answered (rule X1).
        func urlSession(
            _ session: URLSession, task: URLSessionTask, didFinishCollecting metrics: URLSessionTaskMetrics
        ) {
            guard let transaction = metrics.transactionMetrics.last else { return }
            let connection = ConnectionMetrics(transaction)
            let isFromCache = transaction.resourceFetchType == .localCache
            _ = withTransfer(of: task) { transfer in
                transfer.connection = connection
                transfer.isFromCache = isFromCache
            }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            // Removing the state under the lock is what makes completion happen exactly once, cancelled or not.
            let finished = lock.withLock { () -> (Transfer, Data, URLResponse?, next: URLRequest?)? in
                guard let transfer = transfers.removeValue(forKey: task.taskIdentifier) else { return nil }
                if error == nil, let next = transfer.pendingRedirect, transfer.follow != nil {
                    transfer.pendingRedirect = nil
                    transfer.restart()
                    return (transfer, Data(), nil, next)
                }
                return (transfer, transfer.takeBody(), transfer.unansweredChallenge, nil)
            }
            guard let (transfer, body, unansweredChallenge, next) = finished else { return }
            if let next, let follow = transfer.follow {
                follow(next)
                return
            }
            var result: Result<NetworkResponse, any Error>
            if let redirectFailure = lock.withLock({ transfer.redirectFailure }) {
                result = .failure(redirectFailure)
            } else if error != nil, let failure = Self.bodyStreamFailure(of: task) {
                // What Foundation reports for a body stream that failed says nothing of the file (on Linux, a
                // libcurl "aborted by callback"): the stream's own error names it (rule W9).
                result = .failure(failure)
            } else if let unansweredChallenge {
                result = URLSessionProvider.result(response: unansweredChallenge, body: body, error: nil)
            } else {
                let response = task.response
                let url = task.currentRequest?.url
                result = URLSessionProvider.result(
                    response: response, body: body,
                    error: error.map { Self.clarified($0, afterResponse: response, url: url) })
            }
            let measured = lock.withLock { (transfer.redirectCount, transfer.connection, transfer.isFromCache) }
            if case .success(var response) = result, measured != (0, nil, false) {
                // For the request's metrics (rule X1).
                (response.redirectCount, response.connection, response.isFromCache) = measured
                result = .success(response)
            }
            complete(transfer, with: result, bodySize: body.count)
        }

        /// Ends a transfer that is still running with `error`: completes it now and cancels its task.
        ///
        /// The task is cancelled from another queue, because swift-corelibs-foundation cancels with a synchronous
        /// call onto the queue this delegate runs on. Its own completion then finds no state and is ignored.
        private func abandon(_ task: URLSessionTask, _ transfer: Transfer, failingWith error: any Error) {
            lock.withLock { _ = transfer.takeBody() }
            let running = UncheckedTransfer(task)
            (delivery ?? .global()).async { running.value.cancel() }
            complete(transfer, with: .failure(error), bodySize: 0)
        }

        /// Hands `result` to the transfer's completion, with any progress not reported yet just before it.
        private func complete(_ transfer: Transfer, with result: Result<NetworkResponse, any Error>, bodySize: Int) {
            let hasReportsInFlight = lock.withLock { transfer.reportsInFlight > 0 }
            // Progress not reported yet goes out just before the completion, in the same hop.
            let finish: @Sendable () -> Void = { [lock] in
                if let sample = lock.withLock({ transfer.takeNewSample() }) {
                    transfer.progress(sample)
                }
                transfer.completion(result)
            }
            // A report still waiting on `delivery` must not be overtaken: then the completion queues behind it.
            if let delivery, hasReportsInFlight || bodySize > Self.inPlaceCompletionLimit {
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

        /// The error a replayable body stream of `task` stopped with, if it did.
        static func bodyStreamFailure(of task: URLSessionTask) -> (any Error)? {
            let stream = task.currentRequest?.httpBodyStream ?? task.originalRequest?.httpBodyStream
            return (stream as? any ReplayableBodyStream)?.streamError
        }
    }
}
