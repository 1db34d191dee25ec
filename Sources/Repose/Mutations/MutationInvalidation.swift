/// Which resources a successful mutation makes stale, so that what the app shows catches up with the server
/// (rule M6). Set it per URL pattern and method through ``Configuration/invalidation``.
///
/// Invalidated resources keep their data: those observed reload at once (once each, however many mutations land
/// together), the others on their next ``Resource/loadIfNeeded()``.
///
/// ```swift
/// api.configure("/users/*/avatar") { $0.invalidation.parent = false }       // the user list shows no avatars
/// api.configure("/posts/*", requestMethods: [.post]) { $0.invalidation.others = ["/feed", "/users/me"] }
/// ```
public struct MutationInvalidation: Sendable, Equatable {
    /// Whether the resource the request was sent to is invalidated. `true` by default.
    public var target: Bool
    /// Whether its parent collection is: the URL without its last path segment and query (`/users/42` →
    /// `/users`). `true` by default.
    public var parent: Bool
    /// More resources to invalidate: globs relative to the service's base URL, as for
    /// ``Service/configure(_:requestMethods:description:_:)``. Empty by default.
    public var others: [String]

    /// The given scope; by default the target and its parent.
    public init(target: Bool = true, parent: Bool = true, others: [String] = []) {
        self.target = target
        self.parent = parent
        self.others = others
    }

    /// Nothing is invalidated.
    public static let none = MutationInvalidation(target: false, parent: false)
}
