import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking

extension URLSessionProvider {
    /// An operation queue that runs each block at once, on the caller's thread.
    ///
    /// swift-corelibs-foundation adds one operation to the delegate queue for every delegate callback, from the
    /// session's network queue. With this queue the delegate runs right there: it only does bookkeeping under its
    /// lock and hands progress and completion to a queue of its own, so the network queue is never held up by
    /// Repose and a 1 MB body costs one thread hop instead of sixty-four.
    final class InlineOperationQueue: OperationQueue, @unchecked Sendable {
        // `@unchecked Sendable`: adds no state to `OperationQueue`, which is thread-safe.
        override func addOperation(_ block: @escaping @Sendable () -> Void) {
            block()
        }
    }
}

extension URLSessionProvider {
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
        /// Weak for the reason `DataTask.task` is: a finished task is torn down by the session, off the main actor.
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
}

extension URLSessionProvider.SessionDelegate {
    /// Answers credential challenges off the network queue: swift-corelibs-foundation suspends or cancels the task
    /// from the answer with a synchronous call onto that queue, where this delegate runs.
    ///
    /// A 401 with no stored credential to try would hang until the request times out, so the provider ends the
    /// task and delivers the 401 itself. A challenge with a credential to try gets the default handling.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        let disposition: URLSession.AuthChallengeDisposition
        if challenge.proposedCredential == nil, let response = challenge.failureResponse ?? task.response {
            abandonChallenge(on: task, response: response)
            disposition = .cancelAuthenticationChallenge
        } else {
            disposition = .performDefaultHandling
        }
        // The handler is not `Sendable` in this SDK; it is called once, on one queue, and never touched again here.
        let answer = UncheckedTransfer(completionHandler)
        (delivery ?? .global()).async { answer.value(disposition, nil) }
    }
}
#endif
