/// How one request is sent, beyond its method, body and headers: whether the outbox may keep it, and what its
/// success makes stale.
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

    /// Options with the given parts; by default the configuration decides.
    public init(usesOutbox: Bool? = nil, invalidation: InvalidationScope? = nil) {
        self.usesOutbox = usesOutbox
        self.invalidation = invalidation
    }
}
