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
