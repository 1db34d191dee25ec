import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// One request's way through the provider: the task made on the provider's queue, then the session's delegate, which
// collects the body, reports progress and completes, finding the task's state (its `Transfer`) by its identifier.

extension URLSessionProvider {
    /// Starts a data task for `request`, with the default ``Configuration/maximumResponseSize``. See
    /// ``NetworkingProvider/startRequest(_:progress:completion:)``.
    public func startRequest(
        _ request: URLRequest,
        progress: @escaping @Sendable (TransferProgress) -> Void,
        completion: @escaping @Sendable (Result<NetworkResponse, any Error>) -> Void
    ) -> any NetworkingTask {
        startRequest(
            request, maximumResponseSize: NetworkResponse.defaultMaximumSize, progress: progress,
            completion: completion)
    }

    /// Starts a data task for `request` that fails once the body passes `maximumResponseSize` bytes. See
    /// ``NetworkingProvider/startRequest(_:maximumResponseSize:progress:completion:)``.
    public func startRequest(
        _ request: URLRequest,
        maximumResponseSize: Int,
        progress: @escaping @Sendable (TransferProgress) -> Void,
        completion: @escaping @Sendable (Result<NetworkResponse, any Error>) -> Void
    ) -> any NetworkingTask {
        // swift-corelibs-foundation creates a task with a synchronous call onto the session's network queue, which
        // waits behind every callback already queued there: seconds, behind a large upload. The task is made on
        // the provider's own queue, so the caller (the main actor) never waits for the network.
        let handle = QueuedTask(queue: starter)
        starter.async {
            handle.run {
                self.makeTask(
                    request, maximumResponseSize: maximumResponseSize, progress: progress, completion: completion,
                    handle: handle)
            }
        }
        return handle
    }

    /// Creates and resumes the data task for `request`.
    private func makeTask(
        _ request: URLRequest,
        maximumResponseSize: Int,
        progress: @escaping @Sendable (TransferProgress) -> Void,
        completion: @escaping @Sendable (Result<NetworkResponse, any Error>) -> Void,
        handle: QueuedTask
    ) -> URLSessionTask {
        guard let delegate else {
            let task = session.dataTask(with: request) { body, response, error in
                let result = Self.result(response: response, body: body ?? Data(), error: error)
                completion(NetworkResponse.limiting(result, to: maximumResponseSize))
            }
            task.resume()
            return task
        }
        let transfer = SessionDelegate.Transfer(
            maximumSize: maximumResponseSize, progress: progress, completion: completion)
        // Weak: the transfer holds this closure; whoever calls it holds the transfer.
        transfer.follow = { [weak self, weak transfer, starter] next in
            guard let transfer else { return }
            starter.async { [weak self] in
                // A provider that went away has invalidated its session, which makes no more tasks.
                guard let self else { return transfer.completion(.failure(URLError(.cancelled))) }
                handle.run { self.startTask(next, transfer: transfer, on: delegate) }
            }
        }
        return startTask(request, transfer: transfer, on: delegate)
    }

    /// Creates and resumes a data task for `request` whose state is `transfer`.
    private func startTask(
        _ request: URLRequest, transfer: SessionDelegate.Transfer, on delegate: SessionDelegate
    ) -> URLSessionTask {
        let task = session.dataTask(with: request)
        // Registered before `resume()`, so the first callback always finds its state.
        delegate.register(task, transfer)
        task.resume()
        return task
    }

    /// Turns what a task ended with into what Repose expects: any HTTP response is a response, whatever its
    /// status; a transport error or a missing or non-HTTP response is an error.
    static func result(response: URLResponse?, body: Data, error: (any Error)?) -> Result<NetworkResponse, any Error> {
        if let error {
            return .failure(error)
        }
        guard let http = response as? HTTPURLResponse else {
            return .failure(URLError(.badServerResponse))
        }
        // Read once: on swift-corelibs-foundation each read of `allHeaderFields` pays its whole cost again. Casting
        // the key's base is cheaper than casting the `AnyHashable`.
        let fields = http.allHeaderFields
        var headers: [String: String] = [:]
        headers.reserveCapacity(fields.count)
        for (name, value) in fields {
            if let name = name.base as? String, let value = value as? String {
                headers[name] = value
            }
        }
        return .success(NetworkResponse(statusCode: http.statusCode, headers: headers, body: body))
    }

    /// Repose's handle on a data task that is made on the provider's queue, after `startRequest` returns.
    ///
    /// Cancelled before its turn comes, the task is never made, and its completion is never called (the provider's
    /// contract allows either). Cancelling a task that exists is itself a synchronous call onto the session's network
    /// queue on Linux, so it goes through the provider's queue too, after the start: by then the task exists or
    /// never will.
    final class QueuedTask: NetworkingTask, @unchecked Sendable {
        // `@unchecked Sendable`: both variables are only touched under `lock`.
        private let lock = NSLock()
        private var isCancelled = false
        /// Weak: the session holds a task while it runs, and a finished task is then torn down where the session
        /// lets go of it, on its own queue, instead of on the main actor where Repose lets go of this handle (on
        /// Linux that teardown is real work, for each response). Cancelling a task that is gone does nothing.
        private weak var task: URLSessionTask?
        /// The provider's queue, where `run` is called.
        private let queue: DispatchQueue

        init(queue: DispatchQueue) {
            self.queue = queue
        }

        /// Makes the task with `make`, unless the request was cancelled first. Called on `queue`.
        func run(_ make: () -> URLSessionTask) {
            guard !lock.withLock({ isCancelled }) else { return }
            let made = make()
            lock.withLock { task = made }
        }

        func cancel() {
            lock.withLock { isCancelled = true }
            queue.async {
                self.lock.withLock { self.task }?.cancel()
            }
        }
    }

    /// The delegate of a session the provider owns: collects each task's body, reports its progress and
    /// completes it, finding the task's state by its identifier.
    ///
    /// `@unchecked Sendable`: `transfers`, and every variable of the ``Transfer`` objects in it, is only touched
    /// under `lock`, and a transfer taken out of it only by the one callback that took it. Callbacks to Repose run
    /// after the lock is released, never under it.
    final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        typealias ProgressHandler = @Sendable (TransferProgress) -> Void
        typealias CompletionHandler = @Sendable (Result<NetworkResponse, any Error>) -> Void

        /// Bodies up to this size complete in place, on the session's queue: a hop costs more than what Repose does
        /// with a small body. Larger bodies hop to `delivery`, so that parsing them never stalls the session's other
        /// transfers.
        static let inPlaceCompletionLimit = 64 * 1024

        private let lock = NSLock()
        private var transfers: [Int: Transfer] = [:]
        /// Where a large body's completion goes when the delegate itself runs on the session's network queue; `nil`
        /// when it already runs on a queue of its own and completes in place.
        let delivery: DispatchQueue?

        init(delivery: DispatchQueue?) {
            self.delivery = delivery
        }

        /// How many tasks have state here: started and not yet completed.
        var activeTransferCount: Int {
            lock.withLock { transfers.count }
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
            // A streamed body sent chunked has a length URLSession does not know; the stream knows it.
            let expected = totalBytesExpectedToSend > 0 ? totalBytesExpectedToSend : Self.bodyStream(of: task)?.length
            let worthReporting = withTransfer(of: task) { transfer in
                transfer.recordSent(totalBytesSent, expected: expected ?? -1) ? transfer : nil
            }
            if let worthReporting = worthReporting ?? nil {
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
            // Removing the state under the lock is what makes completion happen exactly once, cancelled or not. No
            // other callback finds the transfer from then on, so this one reads it without the lock.
            guard let transfer = lock.withLock({ transfers.removeValue(forKey: task.taskIdentifier) }) else { return }
            if error == nil, let next = transfer.pendingRedirect, let follow = transfer.follow {
                transfer.pendingRedirect = nil
                transfer.restart()
                return follow(next)
            }
            let body = transfer.takeBody()
            var result: Result<NetworkResponse, any Error>
            // What Foundation reports for a body stream that failed says nothing of the file (on Linux, a libcurl
            // "aborted by callback"): the stream's own error names it (rule W9).
            if let failure = transfer.redirectFailure ?? (error == nil ? nil : Self.bodyStream(of: task)?.streamError) {
                result = .failure(failure)
            } else if let unansweredChallenge = transfer.unansweredChallenge {
                result = URLSessionProvider.result(response: unansweredChallenge, body: body, error: nil)
            } else {
                let response = task.response
                let url = task.currentRequest?.url
                result = URLSessionProvider.result(
                    response: response, body: body,
                    error: error.map { Self.clarified($0, afterResponse: response, url: url) })
            }
            if case .success(var response) = result {
                // For the request's metrics (rule X1).
                (response.redirectCount, response.connection, response.isFromCache) =
                    (transfer.redirectCount, transfer.connection, transfer.isFromCache)
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

        /// Hands `result` to the transfer's completion, with any progress not reported yet just before it: in place,
        /// or on `delivery` for a large body, whose processing must not hold the session's network queue.
        private func complete(_ transfer: Transfer, with result: Result<NetworkResponse, any Error>, bodySize: Int) {
            let finish: @Sendable () -> Void = {
                self.report(transfer)
                transfer.completion(result)
            }
            if let delivery, bodySize > Self.inPlaceCompletionLimit {
                delivery.async(execute: finish)
            } else {
                finish()
            }
        }

        /// Reports a transfer's newest sample, in place: what Repose does with it (leave it for the request's one hop
        /// to the main actor, which coalesces reports itself) costs less than a hop to another queue.
        private func report(_ transfer: Transfer) {
            if let sample = lock.withLock({ transfer.takeNewSample() }) {
                transfer.progress(sample)
            }
        }

        /// The request body stream of `task`, if Repose made it (a ``ReplayableBodyStream``): it knows the body's
        /// length where URLSession sends it chunked, and why a read failed.
        static func bodyStream(of task: URLSessionTask) -> (any ReplayableBodyStream)? {
            (task.currentRequest?.httpBodyStream ?? task.originalRequest?.httpBodyStream) as? any ReplayableBodyStream
        }
    }
}

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
        /// The response of a credentials challenge the provider gave up, to deliver instead of the cancellation.
        var unansweredChallenge: URLResponse?

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
            maximumSize: Int, clock: @escaping @Sendable () -> UInt64 = { DispatchTime.now().uptimeNanoseconds },
            progress: @escaping ProgressHandler, completion: @escaping CompletionHandler
        ) {
            self.clock = clock
            self.reportedAt = clock()
            self.maximumSize = maximumSize
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
            if expected > 0 {
                sample.bytesExpectedToSend = max(expected, total)
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

        private func movedEnough() -> Bool {
            let total = (sample.bytesExpectedToSend ?? 0) + (sample.bytesExpectedToReceive ?? 0)
            let step = max(Self.minimumReportStep, total / 16)
            let moved = sample.bytesSent + sample.bytesReceived - reportedBytes
            return moved >= step
                || (moved > 0 && clock() &- reportedAt >= Self.maximumReportGap)
        }
    }
}

#if canImport(FoundationNetworking)
extension URLSessionProvider {
    /// An operation queue that runs each block at once, on the caller's thread.
    ///
    /// swift-corelibs-foundation adds one operation to the delegate queue for every delegate callback, from the
    /// session's network queue. With this queue the delegate runs right there: it does bookkeeping under its lock,
    /// reports progress in place (Repose leaves it for the request's one hop) and hands a large body's completion to a
    /// queue of its own, so the network queue is never held up by parsing and a 1 MB body costs one thread hop
    /// instead of sixty-four.
    final class InlineOperationQueue: OperationQueue, @unchecked Sendable {
        // `@unchecked Sendable`: adds no state to `OperationQueue`, which is thread-safe.
        override func addOperation(_ block: @escaping @Sendable () -> Void) {
            block()
        }
    }
}
#endif
