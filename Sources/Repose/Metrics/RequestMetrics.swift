import Foundation

/// What one completed network request cost: when it ran, how many bytes moved, where its answer came from and how
/// many attempts it took.
///
/// A monitor added with ``Service/monitorRequests(matching:owner:started:completed:)-(_,AnyObject,_,_)`` receives
/// one for every request that reached the networking provider, and for every load the caches answered without it,
/// once the request has completed (succeeded, failed or been cancelled). Times are read from the service's clock
/// (seconds since 1970, like ``Entity/timestamp``), so tests that drive the clock see exact values.
///
/// ```swift
/// service.monitorRequests(owner: self) { metrics in
///     if metrics.duration > 2 { print("slow: \(metrics.method.rawValue) \(metrics.url) \(metrics.duration) s") }
/// }
/// ```
public struct RequestMetrics: Sendable, Hashable {
    /// Where a request's answer came from.
    ///
    /// A struct of static values rather than an enum, so that a future source does not break an app's `switch`.
    public struct Source: Sendable, Hashable, CustomStringConvertible {
        /// A short name: `network`, `cache`, `notModified`, `none`.
        public let description: String

        /// The server sent a response with its body (any status but 304).
        public static let network = Source(description: "network")
        /// A cache answered without the network: Repose's own caches (``Configuration/pipeline``'s cache, read
        /// when a load found fresh data there), or the platform's HTTP cache (`URLCache`, on a session the app
        /// configured with one) as far as the platform reports it (Apple platforms). No body bytes moved; a load
        /// Repose's caches answered sent no attempt (``attempts`` is 0) and has no ``statusCode``.
        public static let cache = Source(description: "cache")
        /// The server answered 304 Not Modified: the data the resource held was confirmed, no body moved.
        public static let notModified = Source(description: "notModified")
        /// No answer: the request failed before any response (no network, a timeout) or was cancelled.
        public static let none = Source(description: "none")
    }

    /// The method the request was sent with.
    public var method: RequestMethod
    /// The URL the request was sent to. Monitors see it as sent: hide secrets in query strings before logging it
    /// (``ReposeLog/describe(url:)`` does).
    public var url: URL
    /// The HTTP status of the last response, or `nil` when there was none.
    public var statusCode: Int?
    /// When the app started the request.
    public var queued: TimeInterval
    /// When the last attempt went to the networking provider; later than ``queued`` after retry waits.
    public var started: TimeInterval
    /// When the last attempt's first body bytes arrived, as far as the provider's progress reports tell; `nil` when
    /// no body arrived (or the provider reports no progress).
    public var firstByte: TimeInterval?
    /// When the request completed.
    public var finished: TimeInterval
    /// Body bytes sent by the last attempt (headers are not counted).
    public var bytesSent: Int64
    /// Body bytes received by the last attempt, after any `Content-Encoding` was undone (headers are not counted).
    public var bytesReceived: Int64
    /// Where the answer came from.
    public var source: Source
    /// How many times the request was sent: 1, plus each retry of the ``Configuration/retryPolicy``, plus one when
    /// the ``Configuration/authenticator`` renewed its credential and sent the request again.
    public var attempts: Int
    /// How many redirects the last attempt followed before its final response: 0 for a direct answer, or when the
    /// networking provider does not count them (``NetworkResponse/redirectCount``).
    public var redirects: Int
    /// How the connection of the last attempt was made (name lookup, connect, TLS, reuse), where the networking
    /// provider reports it: `URLSessionProvider` on Apple platforms; `nil` on Linux, whose Foundation measures none.
    public var connection: ConnectionMetrics?
    /// Seconds the request waited in the service's queue for a slot, over all its attempts: 0 unless the service's
    /// ``RequestLimits`` held it back (rule Q1).
    public var timeQueued: TimeInterval

    /// Seconds from ``queued`` to ``finished``: what the app waited.
    public var duration: TimeInterval { finished - queued }

    /// Seconds from ``started`` to ``firstByte``: the server's think time plus one round trip, when known.
    public var timeToFirstByte: TimeInterval? { firstByte.map { $0 - started } }

    /// Creates metrics; Repose makes them for you, this is for tests and custom providers.
    public init(
        method: RequestMethod, url: URL, statusCode: Int?, queued: TimeInterval, started: TimeInterval,
        firstByte: TimeInterval?, finished: TimeInterval, bytesSent: Int64, bytesReceived: Int64, source: Source,
        attempts: Int, redirects: Int = 0, connection: ConnectionMetrics? = nil, timeQueued: TimeInterval = 0
    ) {
        self.method = method
        self.url = url
        self.statusCode = statusCode
        self.queued = queued
        self.started = started
        self.firstByte = firstByte
        self.finished = finished
        self.bytesSent = bytesSent
        self.bytesReceived = bytesReceived
        self.source = source
        self.attempts = attempts
        self.redirects = redirects
        self.connection = connection
        self.timeQueued = timeQueued
    }
}
