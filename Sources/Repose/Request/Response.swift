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
