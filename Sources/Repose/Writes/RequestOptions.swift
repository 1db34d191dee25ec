/// How one request is sent, beyond its method, body and headers: whether the outbox may keep it, what its success
/// makes stale, and where it stands in the service's queue.
///
/// ```swift
/// note.request(.put, json: body, headers: ["If-Match": etag], options: RequestOptions(usesOutbox: true))
/// post.request(.delete, options: RequestOptions(invalidation: .targetAndParent))
/// ```
///
/// Each part left `nil` follows the configuration for the request's URL and method.
public struct RequestOptions: Sendable {
    /// Whether the service's ``Outbox`` keeps the request when the network fails, for a method that changes data;
    /// `nil` (the default) follows ``Configuration/usesOutbox``.
    public var usesOutbox: Bool?
    /// What the request's success makes stale; `nil` (the default) follows ``Configuration/invalidation``.
    public var invalidation: InvalidationScope?
    /// Where the request stands among those the service's ``RequestLimits`` hold back; `nil` (the default) follows
    /// ``Configuration/priority``.
    public var priority: RequestPriority?

    /// Options with the given parts; by default the configuration decides.
    public init(usesOutbox: Bool? = nil, invalidation: InvalidationScope? = nil, priority: RequestPriority? = nil) {
        self.usesOutbox = usesOutbox
        self.invalidation = invalidation
        self.priority = priority
    }
}
