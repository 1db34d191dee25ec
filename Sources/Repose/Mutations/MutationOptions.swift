/// How one mutation is sent: whether the outbox may keep it, and headers of its own.
///
/// ```swift
/// note.mutate(.put, json: body, options: MutationOptions(usesOutbox: true, headers: ["If-Match": etag]))
/// ```
public struct MutationOptions: Sendable {
    /// Whether the service's ``Outbox`` keeps the mutation when the network fails; `nil` (the default) follows
    /// ``Configuration/usesOutbox`` for its URL and method.
    public var usesOutbox: Bool?
    /// Headers of this mutation, sent with every attempt after the configured ones. The outbox keeps them on disk,
    /// except `Authorization`, `Cookie`, `Proxy-Authorization` and any header whose name says it holds a secret.
    public var headers: [String: String]

    /// Options with the given parts; by default the configuration decides and no header is added.
    public init(usesOutbox: Bool? = nil, headers: [String: String] = [:]) {
        self.usesOutbox = usesOutbox
        self.headers = headers
    }
}
