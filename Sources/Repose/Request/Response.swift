/// The outcome of a request: the entity it produced, or the error.
public enum Response {
    /// The request succeeded.
    case success(Entity<Any>)
    /// The request failed, or was cancelled.
    case failure(RequestError)

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

// Safe for the same reason as RequestError: the entity is created by parsing, handed to the main actor once,
// and never mutated in place afterwards.
extension Response: @unchecked Sendable {}

/// A response together with what it means for a resource's state.
public struct ResponseInfo: Sendable {
    /// The response.
    public var response: Response
    /// `false` for a 304 Not Modified, which confirms existing data instead of bringing new data.
    public var isNew: Bool

    /// Creates a response info.
    public init(response: Response, isNew: Bool = true) {
        self.response = response
        self.isNew = isNew
    }
}
