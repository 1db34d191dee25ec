/// Where the lifetime of loaded data comes from: ``Configuration/freshness``.
///
/// A struct of static values rather than an enum, so that more policies can come without breaking a `switch`.
public struct FreshnessPolicy: Hashable, Sendable {
    /// Whether response headers set the lifetime.
    let readsHeaders: Bool

    /// Data stays fresh for the configuration's ``Configuration/expirationTime``, whatever the response says. The
    /// default.
    public static let fixed = FreshnessPolicy(readsHeaders: false)

    /// Data stays fresh as long as the response's headers say: `Cache-Control: max-age`, else `Expires` minus
    /// `Date`, less `Age`; `no-cache` and `max-age=0` make it stale at once. A response that says nothing keeps
    /// ``Configuration/expirationTime``.
    public static let fromHTTPHeaders = FreshnessPolicy(readsHeaders: true)
}
