/// Which resources a successful write makes stale, so that what the app shows catches up with the server
/// (rule M6). Nothing by default: a write changes no other resource's state unless the app says so, per URL pattern
/// and method, through ``Configuration/invalidation``.
///
/// Invalidated resources keep their data: those observed reload at once (once each, however many writes land
/// together), the others on their next ``Resource/loadIfNeeded()``.
///
/// ```swift
/// api.configure("/users/**", requestMethods: [.post, .put, .patch, .delete]) { $0.invalidation = .targetAndParent }
/// api.configure("/posts/*", requestMethods: [.post]) { $0.invalidation.others = ["/feed", "/users/me"] }
/// ```
public struct InvalidationScope: Sendable, Equatable, Codable {
    /// Whether the resource the request was sent to is invalidated. `false` by default.
    public var target: Bool
    /// Whether its parent collection is: the URL without its last path segment and query (`/users/42` →
    /// `/users`). `false` by default.
    public var parent: Bool
    /// More resources to invalidate: globs relative to the service's base URL, as for
    /// ``Service/configure(_:requestMethods:description:_:)``. Empty by default.
    public var others: [String]

    /// The given scope; by default nothing.
    public init(target: Bool = false, parent: Bool = false, others: [String] = []) {
        self.target = target
        self.parent = parent
        self.others = others
    }

    /// Nothing is invalidated: the default. (Not `.none`, which an optional scope would read as `nil`.)
    public static let nothing = InvalidationScope()

    /// The resource written to and its parent collection: a `PATCH /users/42` makes `/users/42` and `/users` stale.
    public static let targetAndParent = InvalidationScope(target: true, parent: true)
}
