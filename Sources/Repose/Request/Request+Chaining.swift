extension Request {
    /// A request that completes when this one does, unless `whenCompleted` decides otherwise: it can keep this
    /// request's response, substitute another, or hand control to another request.
    ///
    /// The classic use is a decorator that renews an expired token and tries again:
    ///
    /// ```swift
    /// service.configure("**") {
    ///     $0.decorateRequests { _, request in
    ///         request.chained { info in
    ///             guard info.response.error?.httpStatusCode == 401 else { return .useThisResponse }
    ///             return .passTo(
    ///                 session.refreshToken().chained { refresh in
    ///                     refresh.response.error == nil ? .passTo(request.repeated()) : .useResponse(info)
    ///                 })
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// The chain is in progress until an action ends it. Cancelling the chain cancels this request (and a request
    /// the chain started itself with ``RequestChainAction/passTo(_:)``), and the closure never runs. Cancelling
    /// this request alone does not stop the chain: the closure sees the cancellation and may substitute a
    /// response. ``Request/repeated()`` on the chain repeats this request and runs the closure again.
    ///
    /// The chain starts when this request starts: chaining a running request gives a running chain; chaining an
    /// unstarted one (in a decorator, or from ``Request/repeated()``) gives an unstarted chain, and starting the
    /// chain starts this request.
    ///
    /// - Parameter whenCompleted: Called once with this request's response, on the main actor.
    /// - Returns: The chain, a request like any other.
    public func chained(whenCompleted: @escaping @MainActor (ResponseInfo) -> RequestChainAction) -> Request {
        let chain = Request(delegate: RequestChainDelegate(wrapping: self, whenCompleted: whenCompleted), now: now)
        if state != .notStarted {
            chain.start()
        }
        return chain
    }
}

/// What a chain does once the request it wraps has completed; returned by the closure given to
/// ``Request/chained(whenCompleted:)``.
public enum RequestChainAction {
    /// Hands control to another request: the chain completes with that request's response. The request is
    /// started if it has not been yet, so an unstarted request is only ever sent when a chain passes to it.
    case passTo(Request)

    /// Completes the chain with this response instead of the wrapped request's.
    case useResponse(ResponseInfo)

    /// Completes the chain with the wrapped request's own response.
    case useThisResponse
}

/// The work behind ``Request/chained(whenCompleted:)``: wait for the wrapped request, ask the closure what to do,
/// and do it.
@MainActor
final class RequestChainDelegate: RequestDelegate {
    private let wrapped: Request
    private let whenCompleted: @MainActor (ResponseInfo) -> RequestChainAction
    /// Set before this chain cancels the wrapped request, so that the cancellation it causes does not reach the
    /// closure.
    private var isCancelled = false
    /// A request this chain started itself with `.passTo`: nobody else holds it, so cancelling the chain
    /// cancels it too. A request that was already running may be shared and is left alone.
    private var ownedSuccessor: Request?

    init(wrapping wrapped: Request, whenCompleted: @escaping @MainActor (ResponseInfo) -> RequestChainAction) {
        self.wrapped = wrapped
        self.whenCompleted = whenCompleted
    }

    func startUnderlyingOperation(passingResponseTo completionHandler: RequestCompletionHandler) {
        forwardProgress(of: wrapped, to: completionHandler)
        wrapped.onCompletion { [self] info in
            guard !isCancelled, !completionHandler.willIgnore else { return }
            perform(whenCompleted(info), on: info, completionHandler)
        }
        wrapped.start()
    }

    private func perform(
        _ action: RequestChainAction, on info: ResponseInfo, _ completionHandler: RequestCompletionHandler
    ) {
        switch action {
        case .useThisResponse:
            completionHandler.broadcastResponse(info)
        case .useResponse(let substitute):
            completionHandler.broadcastResponse(substitute)
        case .passTo(let successor):
            if successor.state == .notStarted {
                ownedSuccessor = successor
            }
            forwardProgress(of: successor, to: completionHandler)
            successor.onCompletion { [weak self] next in
                self?.ownedSuccessor = nil
                completionHandler.broadcastResponse(next)
            }
            successor.start()
        }
    }

    /// Passes on progress short of completion: the chain itself only reaches 1 when it completes, which may be
    /// long after the request it is waiting on.
    private func forwardProgress(of request: Request, to completionHandler: RequestCompletionHandler) {
        request.onProgress { progress in
            if progress < 1 { completionHandler.broadcastProgress(progress) }
        }
    }

    func cancelUnderlyingOperation() {
        isCancelled = true
        wrapped.cancel()
        ownedSuccessor?.cancel()
        ownedSuccessor = nil
    }

    func repeated() -> any RequestDelegate {
        RequestChainDelegate(wrapping: wrapped.repeated(), whenCompleted: whenCompleted)
    }

    var requestDescription: String {
        "chain(\(wrapped.requestDescription))"
    }
}
