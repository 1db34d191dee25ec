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
