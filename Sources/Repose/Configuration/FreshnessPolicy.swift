/// Where the lifetime of loaded data comes from: ``Configuration/freshness``.
///
/// A struct of static values rather than an enum, so that more policies can come without breaking a `switch`.
public struct FreshnessPolicy: Hashable, Sendable {
    /// Whether response headers set the lifetime.
    let readsHeaders: Bool

    /// Data stays fresh for the configuration's ``Configuration/expirationTime``, whatever the response says. The
    /// default.
    public static let fixed = FreshnessPolicy(readsHeaders: false)

    /// Data stays fresh as long as the response's headers say, as RFC 9111 has a private cache read them:
    /// `Cache-Control: max-age`, else `Expires` minus `Date`, less `Age`. `no-cache`, `no-store`, `Vary: *`,
    /// `max-age=0`, a `max-age` that is not a whole number of seconds, and `must-revalidate` without a lifetime make
    /// it stale at once. A 304 updates the lifetime from its own `Cache-Control`, `Expires` and `Date`. A response
    /// that says nothing about its lifetime keeps ``Configuration/expirationTime``.
    public static let fromHTTPHeaders = FreshnessPolicy(readsHeaders: true)
}
