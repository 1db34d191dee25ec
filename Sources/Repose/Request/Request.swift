import Foundation

/// One HTTP request (or a request-like operation) and the hooks waiting for its result.
///
/// Attach hooks to act on this one request; each hook fires at most once, always asynchronously, even when
/// attached after the request completed. Observers of a resource hear about loads no matter who started them;
/// hooks are for the code that cares about a particular request.
///
/// ```swift
/// resource.request(.post, json: ["name": "Ada"])
///     .onSuccess { entity in print("saved") }
///     .onFailure { error in print(error.userMessage) }
/// ```
@MainActor
public final class Request {
    /// Where a request is in its life.
    public enum State: Sendable, Equatable {
        /// Created but not sent; call ``Request/start()``.
        case notStarted
        /// Sent, waiting for its response.
        case inProgress
        /// Finished: succeeded, failed, or cancelled.
        case completed
    }

    /// Where the request is in its life.
    public private(set) var state: State = .notStarted
    /// How far the request has got, from 0 to 1. It only grows, and is exactly 1 once the request completed.
    public private(set) var progress: Double = 0
    /// The body bytes sent and received so far, and how many of each are expected where the request knows: the
    /// figures behind ``progress``, for a label such as "3.2 of 8 MB". They only grow, and change no sooner than
    /// ``progress`` is reported, so a progress hook reads them fresh; a body that arrives in one piece counts once,
    /// just before the request completes.
    public private(set) var transfer = TransferProgress()
    /// The result, once the request completed.
    public private(set) var completedResponse: ResponseInfo?

    let delegate: any RequestDelegate
    // Closures inside a struct: an array of bare closures stores them at the most general abstraction, and
    // converting each hook to it allocated a thunk, for every hook of every load.
    private var completionHooks: [CompletionHook] = []
    private var progressHooks: [ProgressHook] = []
    /// Weak: the handler keeps the request alive while the work is under way, not the other way round.
    private weak var currentHandler: RequestCompletionHandler?

    /// The clock that stamps a cancellation: the service's, for requests a resource made.
    let now: @Sendable () -> TimeInterval

    init(delegate: any RequestDelegate, now: @escaping @Sendable () -> TimeInterval) {
        self.delegate = delegate
        self.now = now
    }

    /// Sends the request, if it has not been sent yet. Most requests start on creation; a request from
    /// ``repeated()`` or from a custom delegate waits for this call.
    @discardableResult
    public func start() -> Request {
        guard state == .notStarted else { return self }
        state = .inProgress
        let handler = RequestCompletionHandler(request: self)
        currentHandler = handler
        delegate.startUnderlyingOperation(passingResponseTo: handler)
        return self
    }

    /// Cancels the request: it completes at once with a failure whose cause is
    /// ``RequestError/Cause/RequestCancelled``. Does nothing once the request has completed.
    public func cancel() {
        guard state != .completed else { return }
        delegate.cancelUnderlyingOperation()
        complete(with: .cancellation(timestamp: now()))
    }

    /// A new, unstarted request that does the same thing again, built afresh from the current configuration.
    /// This request keeps its own result, and its hooks are not called again.
    public func repeated() -> Request {
        Request(delegate: delegate.repeated(), now: now)
    }

    /// A short description of what the request does, for logs.
    public var requestDescription: String {
        delegate.requestDescription
    }

    // MARK: Completion

    /// Delivers the response, once: later calls are ignored.
    func complete(with info: ResponseInfo) {
        guard state != .completed else { return }
        state = .completed
        currentHandler?.detach()
        currentHandler = nil
        completedResponse = info
        updateProgress(1)
        let hooks = completionHooks
        completionHooks = []
        progressHooks = []
        for hook in hooks {
            hook.call(info)
        }
    }

    /// Records progress; values only grow, and hooks hear about each change.
    func updateProgress(_ newProgress: Double) {
        guard newProgress > progress else { return }
        progress = min(newProgress, 1)
        for hook in progressHooks {
            hook.call(progress)
        }
    }

    /// Records bytes moved; each count only grows, and an expectation is never below what moved.
    func updateTransfer(_ new: TransferProgress) {
        var merged = transfer
        merged.bytesSent = max(merged.bytesSent, new.bytesSent)
        merged.bytesReceived = max(merged.bytesReceived, new.bytesReceived)
        if let expected = new.bytesExpectedToSend { merged.bytesExpectedToSend = max(expected, merged.bytesSent) }
        if let expected = new.bytesExpectedToReceive {
            merged.bytesExpectedToReceive = max(expected, merged.bytesReceived)
        }
        transfer = merged
    }

    func isCurrent(_ handler: RequestCompletionHandler) -> Bool {
        currentHandler === handler
    }

    // MARK: Hooks

    /// Calls `hook` with the response when the request completes, however it completes.
    @discardableResult
    public func onCompletion(_ hook: @escaping @MainActor (ResponseInfo) -> Void) -> Request {
        if let completedResponse {
            Task { @MainActor in hook(completedResponse) }
        } else {
            // A load gathers a few hooks (the resource's, the app's, an `await`): room for them at once, not a
            // regrowth with each.
            if completionHooks.isEmpty { completionHooks.reserveCapacity(4) }
            completionHooks.append(CompletionHook(call: hook))
        }
        return self
    }

    /// Calls `hook` with the entity when the request succeeds, including a 304 that confirms existing data.
    @discardableResult
    public func onSuccess(_ hook: @escaping @MainActor (Entity<Any>) -> Void) -> Request {
        onCompletion { info in
            if case .success(let entity) = info.response { hook(entity) }
        }
    }

    /// Calls `hook` when the request succeeds with new data (not a 304).
    @discardableResult
    public func onNewData(_ hook: @escaping @MainActor (Entity<Any>) -> Void) -> Request {
        onCompletion { info in
            if info.isNew, case .success(let entity) = info.response { hook(entity) }
        }
    }

    /// Calls `hook` when the server answers 304 Not Modified.
    @discardableResult
    public func onNotModified(_ hook: @escaping @MainActor () -> Void) -> Request {
        onCompletion { info in
            if !info.isNew, case .success = info.response { hook() }
        }
    }

    /// Calls `hook` with the error when the request fails or is cancelled.
    @discardableResult
    public func onFailure(_ hook: @escaping @MainActor (RequestError) -> Void) -> Request {
        onCompletion { info in
            if case .failure(let error) = info.response { hook(error) }
        }
    }

    /// Calls `hook` as the request makes progress, with values from 0 to 1, ending with exactly 1 before the
    /// completion hooks run, however the request ends. At 1, ``completedResponse`` says how it ended (a progress bar
    /// tells a finished download from a failed or cancelled one by it), and ``transfer`` holds the bytes behind the
    /// fraction at every call.
    @discardableResult
    public func onProgress(_ hook: @escaping @MainActor (Double) -> Void) -> Request {
        if state == .completed {
            Task { @MainActor in hook(1) }
        } else {
            progressHooks.append(ProgressHook(call: hook))
        }
        return self
    }
}

/// How a ``RequestDelegate`` reports its result and progress to its request.
@MainActor
public final class RequestCompletionHandler {
    /// Strong until the request completes, so that a request nobody else holds (a chain, say) still completes
    /// and runs its hooks; whoever holds the handler holds the request.
    private var request: Request?

    init(request: Request) {
        self.request = request
    }

    /// Lets go of the completed request.
    func detach() {
        request = nil
    }

    /// Whether a broadcast would be ignored: the request already completed or was cancelled.
    public var willIgnore: Bool {
        guard let request else { return true }
        return request.state == .completed || !request.isCurrent(self)
    }

    /// Completes the request with `info`, delivered verbatim to its hooks (no transformer pipeline).
    public func broadcastResponse(_ info: ResponseInfo) {
        guard !willIgnore else { return }
        request?.complete(with: info)
    }

    /// Reports progress from 0 to 1.
    public func broadcastProgress(_ progress: Double) {
        guard !willIgnore else { return }
        request?.updateProgress(min(progress, 1))
    }

    /// Reports the body bytes moved so far, before the progress they make (``broadcastProgress(_:)``). Counts
    /// never go back: a figure below the last one reported is ignored.
    public func broadcastTransfer(_ transfer: TransferProgress) {
        guard !willIgnore else { return }
        request?.updateTransfer(transfer)
    }
}

/// A request's hooks, in structs so that they are stored as they were written (see `Request.completionHooks`). Not
/// one generic struct: a generic field is stored at the most general abstraction again.
private struct CompletionHook {
    let call: @MainActor (ResponseInfo) -> Void
}

private struct ProgressHook {
    let call: @MainActor (Double) -> Void
}

/// The outcome of a request: the entity it produced, or the error.
///
/// A plain `Result`, so `switch`, `get()` and `map` work as everywhere else in Swift.
public typealias Response = Result<Entity<Any>, RequestError>

extension Result where Success == Entity<Any>, Failure == RequestError {
    /// Whether the request was cancelled.
    public var isCancellation: Bool {
        if case .failure(let error) = self { return error.isCancellation }
        return false
    }

    /// The entity, on success.
    public var entity: Entity<Any>? {
        if case .success(let entity) = self { return entity }
        return nil
    }

    /// The error, on failure.
    public var error: RequestError? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

/// A response together with what it means for a resource's state.
public struct ResponseInfo {
    /// The response.
    public var response: Response
    /// `false` for a 304 Not Modified, which confirms existing data instead of bringing new data.
    public var isNew: Bool
    /// Whether a not-modified answer confirms the data as current now (a server's 304), rather than reusing data
    /// that was still fresh (cached data that answered ``Resource/loadIfNeeded()`` without the network). Only a
    /// confirmation re-stamps the data and its cache entries: otherwise data read from disk would become fresh
    /// again on every launch without any server having seen it.
    var confirmsData = true

    /// Creates a response info.
    public init(response: Response, isNew: Bool = true) {
        self.response = response
        self.isNew = isNew
    }

    /// The response for a cancelled request.
    static func cancellation(networkError: (any Error)? = nil, timestamp: Double) -> ResponseInfo {
        ResponseInfo(
            response: .failure(
                RequestError(
                    userMessage: "The request was cancelled.",
                    cause: RequestError.Cause.RequestCancelled(networkError: networkError),
                    timestamp: timestamp)))
    }
}
