import Foundation

/// When and how often a failed request is sent again: ``Configuration/retryPolicy``, off (`nil`) by default.
///
/// A request is retried when it failed with a transport error (a lost connection, a timeout, no route to the
/// server) or with one of ``statuses``, and its method is one of ``methods``. Attempt *n* + 1 starts
/// `baseDelay × 2^(n−1)` seconds after attempt *n* failed, at most ``maximumDelay``, less a random part of up to
/// ``jitter`` of it, and never before the response's `Retry-After`. A `Retry-After` is read as at most
/// ``longestServerWait`` (one hour); one beyond ``maximumDelay`` ends the retries at once: the request fails with
/// that response.
///
/// ```swift
/// api.configure("/api/**") {
///     $0.retryPolicy = RetryPolicy(maximumAttempts: 4, baseDelay: 0.5, maximumDelay: 20)
/// }
/// ```
///
/// The caller still holds one ``Request``: its hooks and the resource's observers hear only the result of the last
/// attempt, and ``Request/cancel()`` stops the retries at once, during a wait too. Every wait runs on the service's
/// scheduler, so a test on a `TestScheduler` moves through them with `advance(by:)`.
public struct RetryPolicy: Sendable {
    /// How many times a request is sent at most, the first time included: 3 means two retries. 1 or less turns
    /// retrying off.
    public var maximumAttempts: Int
    /// The wait before the first retry, in seconds; each later wait doubles it. 1 by default.
    public var baseDelay: TimeInterval
    /// The longest wait, in seconds, and the longest `Retry-After` that is honoured: a server asking for more ends
    /// the retries. 30 by default.
    public var maximumDelay: TimeInterval
    /// How much of each wait is left to chance, from 0 (every client waits exactly as long) to 1 (anywhere between
    /// no wait and the full one). 0.5 by default, so that clients turned away together do not return together.
    public var jitter: Double
    /// The HTTP statuses worth another try: 408, 429, 500, 502, 503 and 504 by default.
    public var statuses: Set<Int>
    /// The methods that are retried: by default the idempotent ones, GET, HEAD, PUT, DELETE and OPTIONS. Add
    /// `.post` or `.patch` only for endpoints that are safe to repeat, such as ones taking an `Idempotency-Key`.
    public var methods: Set<RequestMethod>
    /// Where the jitter comes from: a number from 0 up to (not including) 1, random by default. Give a fixed one
    /// in tests.
    public var randomFraction: @Sendable () -> Double

    /// The statuses retried by default.
    public static let defaultStatuses: Set<Int> = [408, 429, 500, 502, 503, 504]
    /// The methods retried by default: the idempotent ones.
    public static let idempotentMethods: Set<RequestMethod> = [.get, .head, .put, .delete, .options]

    /// The longest wait a server's `Retry-After` can ask for, in seconds: one hour. A longer one (a date next year,
    /// `2147483647` seconds) counts as this long, for retries and for ``Resource/loadIfNeeded()`` alike.
    ///
    /// An hour covers the windows servers really ask clients to wait out (per-minute and hourly rate limits, a
    /// restart, a short maintenance), while a server that is misconfigured, or asks for days, costs the app at most
    /// one request an hour instead of silencing ``Resource/loadIfNeeded()`` until the app restarts. An explicit
    /// ``Resource/load()`` is never held back.
    public static let longestServerWait: TimeInterval = 3600

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - maximumAttempts: How many times a request is sent at most, the first time included.
    ///   - baseDelay: The wait before the first retry, in seconds, doubled for each later one.
    ///   - maximumDelay: The longest wait, and the longest `Retry-After` honoured, in seconds.
    ///   - jitter: The share of each wait left to chance, from 0 to 1.
    ///   - statuses: The HTTP statuses that are retried.
    ///   - methods: The methods that are retried.
    ///   - randomFraction: The source of the jitter: numbers from 0 up to 1.
    public init(
        maximumAttempts: Int = 3,
        baseDelay: TimeInterval = 1,
        maximumDelay: TimeInterval = 30,
        jitter: Double = 0.5,
        statuses: Set<Int> = RetryPolicy.defaultStatuses,
        methods: Set<RequestMethod> = RetryPolicy.idempotentMethods,
        randomFraction: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.maximumAttempts = maximumAttempts
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.jitter = jitter
        self.statuses = statuses
        self.methods = methods
        self.randomFraction = randomFraction
    }

    /// What to do after an attempt.
    enum Decision: Equatable {
        /// Keep this response: it succeeded, cannot get better, or was the last attempt.
        case stop
        /// Send the request again after this many seconds.
        case retry(after: TimeInterval)
    }

    /// What to do once attempt number `attempt` (1 for the first) completed with `info` (rule R5).
    func decision(after info: ResponseInfo, attempt: Int) -> Decision {
        guard attempt < maximumAttempts, case .failure(let error) = info.response, isWorthRetrying(error) else {
            return .stop
        }
        let exponent = Double(min(attempt - 1, 62))
        let backoff = min(max(0, maximumDelay), max(0, baseDelay) * pow(2, exponent))
        let fraction = min(max(randomFraction(), 0), 1)
        let wait = backoff * (1 - min(max(jitter, 0), 1) * fraction)
        guard let serverWait = HTTPFreshness(error: error).retryDelay else { return .retry(after: wait) }
        return serverWait > maximumDelay ? .stop : .retry(after: max(wait, serverWait))
    }

    private func isWorthRetrying(_ error: RequestError) -> Bool {
        guard !error.isCancellation else { return false }
        if let status = error.httpStatusCode { return statuses.contains(status) }
        return error.cause.map(Self.isTransient) ?? false
    }

    /// Whether a transport failure may go away by itself: any `URLError` except those that would only fail the
    /// same way again (a cancellation, a bad address, a redirect loop, a body over the limit, an untrusted
    /// certificate, missing credentials).
    static func isTransient(_ error: any Error) -> Bool {
        let nsError = error as NSError
        guard nsError.domain == NSURLErrorDomain else { return false }
        return !permanentURLErrors.contains(nsError.code)
    }

    private static let permanentURLErrors: Set<Int> = Set(permanentURLErrorCodes.map(\.rawValue))

    private static let permanentURLErrorCodes: [URLError.Code] = [
        .cancelled, .badURL, .unsupportedURL, .httpTooManyRedirects, .redirectToNonExistentLocation,
        .dataLengthExceedsMaximum, .secureConnectionFailed, .serverCertificateHasBadDate,
        .serverCertificateUntrusted, .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid,
        .clientCertificateRejected, .clientCertificateRequired, .appTransportSecurityRequiresSecureConnection,
        .userAuthenticationRequired, .userCancelledAuthentication, .fileDoesNotExist, .noPermissionsToReadFile,
    ]
}
