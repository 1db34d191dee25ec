/// How one mutation is sent: whether the outbox may keep it.
///
/// ```swift
/// note.mutate(.put, json: body, headers: ["If-Match": etag], options: MutationOptions(usesOutbox: true))
/// ```
///
/// A mutation's own headers are an argument of ``Resource/mutate(_:showing:on:headers:options:)``, as they are of
/// every request.
public struct MutationOptions: Sendable {
    /// Whether the service's ``Outbox`` keeps the mutation when the network fails; `nil` (the default) follows
    /// ``Configuration/usesOutbox`` for its URL and method.
    public var usesOutbox: Bool?

    /// Options with the given parts; by default the configuration decides.
    public init(usesOutbox: Bool? = nil) {
        self.usesOutbox = usesOutbox
    }
}
