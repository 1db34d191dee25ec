/// How many requests a service sends at once (rule Q1). Requests beyond a cap wait in the service's queue and start,
/// by priority, as others end; ``unlimited`` (the default) sends every request as it is made.
///
/// ```swift
/// let api = Service(baseURL: "https://api.example.com", options: .init(limits: RequestLimits(total: 8, perHost: 4)))
/// ```
///
/// Loads, writes, uploads and downloads count; an event stream's connection, open for as long as it is observed, does
/// not, so a live feed never holds a slot that others wait for.
public struct RequestLimits: Sendable, Equatable {
    /// The most requests in flight across all hosts; `nil` for no cap.
    public var total: Int?
    /// The most requests in flight to one host (scheme, host and port); `nil` for no cap.
    public var perHost: Int?

    /// Caps of at least one request each; `nil` leaves that cap off.
    public init(total: Int? = nil, perHost: Int? = nil) {
        self.total = total.map { max(1, $0) }
        self.perHost = perHost.map { max(1, $0) }
    }

    /// No cap: every request is sent as it is made.
    public static let unlimited = RequestLimits()
}

/// Which waiting request starts first when a service's ``RequestLimits`` hold requests back (rule Q2).
///
/// Set it by URL pattern, `$0.priority = .low` in `configure`, or for one request with
/// ``RequestOptions/priority``. A priority the app sets comes first; among equal ones, a load of a resource that
/// something observes starts before a load nobody observes yet (a prefetch), and then requests start in the order they
/// were made.
public enum RequestPriority: Int, Sendable, Comparable, CaseIterable {
    /// Before every other waiting request.
    case high
    /// The default.
    case normal
    /// After every other waiting request.
    case low

    public static func < (lhs: RequestPriority, rhs: RequestPriority) -> Bool { lhs.rawValue < rhs.rawValue }
}
