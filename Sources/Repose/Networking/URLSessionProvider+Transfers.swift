import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// One request's way through the provider: the task made on the provider's queue, then the session's one delegate,
// which hands each task's response to its sink as it arrives, finding the task's state (its `Transfer`) by its
// identifier.

extension URLSessionProvider {
    /// Starts a data task for `request` whose response goes to `sink`. See
    /// ``NetworkingProvider/startTransfer(_:into:)``.
    public func startTransfer(_ request: URLRequest, into sink: any ResponseSink) -> any NetworkingTask {
        // swift-corelibs-foundation creates a task with a synchronous call onto the session's network queue, which
        // waits behind every callback already queued there: seconds, behind a large upload. The task is made on
        // the provider's own queue, so the caller (the main actor) never waits for the network.
        let handle = QueuedTask(queue: starter)
        starter.async {
            handle.run { self.makeTask(request, sink: sink, handle: handle) }
        }
        return handle
    }

    /// Creates and resumes the data task for `request`.
    private func makeTask(_ request: URLRequest, sink: any ResponseSink, handle: QueuedTask) -> URLSessionTask {
        guard let delegate else {
            // A session of the app's has a delegate of its own: the body arrives whole, with the completion.
            let task = session.dataTask(with: request) { body, response, error in
                sink.deliver(Self.result(response: response, body: body ?? Data(), error: error))
            }
            task.resume()
            return task
        }
        let transfer = SessionDelegate.Transfer(sink: sink)
        // Weak: the transfer holds this closure; whoever calls it holds the transfer.
        transfer.follow = { [weak self, weak transfer, starter] next in
            guard let transfer else { return }
            starter.async { [weak self] in
                // A provider that went away has invalidated its session, which makes no more tasks.
                guard let self else { return transfer.sink.finish(URLError(.cancelled)) }
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

    /// Repose's handle on a data task that is made on the provider's queue, after `startTransfer` returns.
    ///
    /// Cancelled before its turn comes, the task is never made, and its sink hears nothing (the provider's contract
    /// allows it). Cancelling a task that exists is itself a synchronous call onto the session's network queue on
    /// Linux, so it goes through the provider's queue too, after the start: by then the task exists or never will.
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

    /// The delegate of a session the provider owns: hands each task's response to its sink as it arrives, finding
    /// the task's state by its identifier.
    ///
    /// `@unchecked Sendable`: `transfers`, and every variable of the ``Transfer`` objects in it, is only touched
    /// under `lock`, and a transfer taken out of it only by the one callback that took it. Sinks are called after
    /// the lock is released, never under it, one callback at a time: the session calls its delegate serially.
    final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var transfers: [Int: Transfer] = [:]

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

        /// The transfer of `task` while its response is the one its sink wants: not the answer of a redirect the
        /// provider follows itself.
        private func receiving(_ task: URLSessionTask) -> Transfer? {
            withTransfer(of: task) { $0.pendingRedirect == nil ? $0 : nil } ?? nil
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
            totalBytesExpectedToSend: Int64
        ) {
            // A streamed body sent chunked has a length URLSession does not know; the stream knows it.
            let expected = totalBytesExpectedToSend > 0 ? totalBytesExpectedToSend : Self.bodyStream(of: task)?.length
            withTransfer(of: task) { $0 }?.sink.progress(
                TransferProgress(bytesSent: totalBytesSent, bytesExpectedToSend: expected))
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
        ) {
            guard let transfer = receiving(dataTask), begin(transfer, with: response) == false else {
                return completionHandler(.allow)
            }
            // swift-corelibs-foundation ignores the disposition: `abandon` cancels the task there.
            completionHandler(.cancel)
            abandon(dataTask)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            guard let transfer = receiving(dataTask) else { return }
            // A response whose head came without its callback (a redirect answered as the response) begins here.
            if begin(transfer, with: dataTask.response) == false || !transfer.sink.receive(data) {
                abandon(dataTask)
            }
        }

        /// Hands the sink `response`'s status and headers, unless it has them or `response` is not HTTP: `nil` then,
        /// else whether the sink wants the body.
        private func begin(_ transfer: Transfer, with response: URLResponse?) -> Bool? {
            // Asked first: the head reads every header field, which costs a whole copy on each read on Linux, and
            // the body's first piece and the end ask again.
            guard !lock.withLock({ transfer.hasBegun }),
                case .success(var head) = URLSessionProvider.result(response: response, body: Data(), error: nil)
            else { return nil }
            head.redirectCount = lock.withLock {
                transfer.hasBegun = true
                return transfer.redirectCount
            }
            return transfer.sink.receive(head)
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
                return follow(next)
            }
            let sink = transfer.sink
            var failure: (any Error)?
            // What Foundation reports for a body stream that failed says nothing of the file (on Linux, a libcurl
            // "aborted by callback"): the stream's own error names it (rule W9).
            if let stopped = transfer.redirectFailure ?? (error == nil ? nil : Self.bodyStream(of: task)?.streamError) {
                failure = stopped
            } else if let challenge = transfer.unansweredChallenge {
                // The 401 the provider ended the task for, instead of the cancellation.
                guard begin(transfer, with: challenge) != false else { return }
            } else if let error {
                failure = Self.clarified(error, afterResponse: task.response, url: task.currentRequest?.url)
            } else if begin(transfer, with: task.response) == false {
                return
            }
            if failure == nil, !transfer.hasBegun {
                failure = URLError(.badServerResponse)  // no HTTP response came
            }
            sink.finish(failure, connection: transfer.connection, isFromCache: transfer.isFromCache)
        }

        /// Ends a transfer whose sink wants no more: forgets it, so that later callbacks of its task find no state,
        /// and cancels its task, from another queue, because swift-corelibs-foundation cancels with a synchronous
        /// call onto the queue this delegate runs on.
        private func abandon(_ task: URLSessionTask) {
            lock.withLock { _ = transfers.removeValue(forKey: task.taskIdentifier) }
            let running = UncheckedTransfer(task)
            DispatchQueue.global().async { running.value.cancel() }
        }

        /// The request body stream of `task`, if Repose made it (a ``ReplayableBodyStream``): it knows the body's
        /// length where URLSession sends it chunked, and why a read failed.
        static func bodyStream(of task: URLSessionTask) -> (any ReplayableBodyStream)? {
            (task.currentRequest?.httpBodyStream ?? task.originalRequest?.httpBodyStream) as? any ReplayableBodyStream
        }
    }
}

extension URLSessionProvider.SessionDelegate {
    /// What the provider keeps for one transfer while it runs, across the tasks of the redirects it follows itself.
    ///
    /// `@unchecked Sendable`: its variables are only touched under the delegate's lock, or by the one callback that
    /// took the transfer out of it; its constant never changes.
    final class Transfer: @unchecked Sendable {
        let sink: any ResponseSink
        /// Whether the sink has the response's status and headers.
        var hasBegun = false
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

        init(sink: any ResponseSink) {
            self.sink = sink
        }
    }
}

#if canImport(FoundationNetworking)
extension URLSessionProvider {
    /// An operation queue that runs each block at once, on the caller's thread.
    ///
    /// swift-corelibs-foundation adds one operation to the delegate queue for every delegate callback, from the
    /// session's network queue: a thread hop for every 16 KB of body. With this queue the delegate runs right there,
    /// and takes each piece of a body before the next is read from the socket, so a slow sink (a disk) holds the
    /// sender back through TCP instead of piling the body up in memory. That queue is shared by every session of
    /// the process: Repose's sinks only copy, write to a file or parse there, and move anything of the app's off it.
    final class InlineOperationQueue: OperationQueue, @unchecked Sendable {
        // `@unchecked Sendable`: adds no state to `OperationQueue`, which is thread-safe.
        override func addOperation(_ block: @escaping @Sendable () -> Void) {
            block()
        }
    }
}
#endif
