import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSessionProvider {
    /// Streams `request`'s body as it arrives, for an ``EventStream``.
    ///
    /// Each stream gets a session of its own, made from this provider's configuration (so it shares its cookie
    /// storage, proxies and timeouts), whose delegate hands over every piece of the body as it arrives. A stream
    /// lives for minutes or hours and there are few of them, so a session each costs little, and it keeps the
    /// request path's delegate free of a second way of delivering bodies. A redirect is followed only within the
    /// request's origin, so that its credential never reaches another host.
    ///
    /// A provider made with ``init(session:)`` streams nothing: a second session would bypass that session's own
    /// delegate (its trust evaluation or certificate pinning), so the request goes through the app's session and the
    /// body arrives whole, when it ends.
    ///
    /// - Parameters:
    ///   - request: The fully built request.
    ///   - response: Called once with the status and headers, before any `body` call.
    ///   - body: Called with each piece of the body, in order. On Linux the next piece is not read from the
    ///     connection until `body` returns, so that a slow consumer slows the transfer instead of filling memory:
    ///     keep it short, and never wait in it for the main actor.
    ///   - completion: Called once when the transfer ends: `nil` when the body ended, else the transport error.
    ///     Not called after the task is cancelled.
    /// - Returns: A handle that stops the transfer.
    public func startStreaming(
        _ request: URLRequest,
        response: @escaping @Sendable (NetworkResponse) -> Void,
        body: @escaping @Sendable (Data) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> any NetworkingTask {
        guard self.delegate != nil else {
            return startWholeBody(request, response: response, body: body, completion: completion)
        }
        let delegate = StreamingDelegate(response: response, body: body, completion: completion)
        #if canImport(FoundationNetworking)
        // swift-corelibs-foundation hands every piece of the body to the delegate queue without waiting for it: a
        // consumer that falls behind (a busy machine, a slow disk) lets the pieces pile up in memory, hundreds of
        // megabytes for a large download. Run inline, the delegate takes each piece on the session's network queue
        // before the next is read from the socket, so a slow consumer holds the sender back through TCP instead.
        // Suspending the task when too much is waiting did not bound it (tried: the whole body still piled up).
        // That queue is serial, so the callbacks still come one at a time, in order. It is also shared by every
        // URLSession of the process, so a consumer must not block: Repose's own (the download's file writer, the
        // event-stream parser) only write to a file or parse.
        let queue: OperationQueue = InlineOperationQueue()
        #else
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1  // one callback at a time, in order: the body's pieces stay in order
        #endif
        let configuration = (session.configuration.copy() as? URLSessionConfiguration) ?? session.configuration
        let streamSession = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
        let task = streamSession.dataTask(with: request)
        delegate.start(task)
        // The session holds its delegate until it is invalidated; it is invalidated once its one task ends.
        streamSession.finishTasksAndInvalidate()
        return delegate
    }
}

/// Receives one streamed transfer and hands its parts to Repose; cancelling it stops the hand-overs and the task.
///
/// Safe (`@unchecked Sendable`): `isCancelled`, `task` and `redirectCount` are read and written under `lock`; the
/// handlers are immutable and `Sendable`; the session calls the delegate one callback at a time on its serial queue,
/// and `URLSessionTask.cancel()` may be called from any thread.
final class StreamingDelegate: NSObject, URLSessionDataDelegate, NetworkingTask, @unchecked Sendable {
    private let onResponse: @Sendable (NetworkResponse) -> Void
    private let onBody: @Sendable (Data) -> Void
    private let onCompletion: @Sendable ((any Error)?) -> Void
    private let lock = NSLock()
    private var isCancelled = false
    private var task: URLSessionTask?
    /// The redirects the task followed, told with the response (rule X1).
    private var redirectCount = 0

    init(
        response: @escaping @Sendable (NetworkResponse) -> Void, body: @escaping @Sendable (Data) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) {
        onResponse = response
        onBody = body
        onCompletion = completion
    }

    /// Resumes the stream's one task, kept for `cancel()`.
    func start(_ task: URLSessionTask) {
        lock.withLock { self.task = task }
        task.resume()
    }

    /// Stops every later hand-over (the task's own cancellation may still call back), and the task.
    func cancel() {
        lock.withLock {
            isCancelled = true
            return task
        }?.cancel()
    }

    private var isLive: Bool {
        lock.withLock { !isCancelled }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        if isLive, case .success(var head) = URLSessionProvider.result(response: response, body: Data(), error: nil) {
            head.redirectCount = lock.withLock { redirectCount }
            onResponse(head)
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        if isLive { onBody(data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if isLive { onCompletion(error) }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        guard let from = task.originalRequest?.url, let to = request.url,
            URLSessionProvider.Redirects.isSameOrigin(from, to)
        else { return completionHandler(nil) }  // nil: the redirect itself is the answer, a failure
        lock.withLock { redirectCount += 1 }
        completionHandler(request)
    }
}
