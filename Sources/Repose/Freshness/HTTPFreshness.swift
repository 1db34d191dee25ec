import Foundation

/// What a response's headers say about how long its data stays fresh (rules R1, R2) and when to ask again after a
/// failure (rule R4), worked out once, when the response arrives.
///
/// ```swift
/// let freshness = HTTPFreshness(headers: entity.headers, receivedAt: entity.timestamp)
/// let maxAge = freshness.expirationTime(configured: configuration.expirationTime)  // fresh while age <= maxAge
/// ```
///
/// | header | effect |
/// |---|---|
/// | `Cache-Control: max-age=N` | the lifetime is N seconds; a value that is not a whole number of seconds (`-1`, `1.5`, `soon`, none) means stale at once |
/// | `Expires` (when there is no `max-age`) | the lifetime is `Expires` − `Date` (`Date` defaults to the time received); a value that is not a date means already expired |
/// | `Cache-Control: no-cache` or `no-store` | stale at once: the lifetime is 0, whatever else the response says |
/// | `Vary: *` | stale at once: the response may differ on anything, so nothing can be reused (RFC 9111 §4.1) |
/// | `Cache-Control: must-revalidate` without `max-age` or `Expires` | stale at once: the configured time would be a lifetime the server never gave |
/// | `Age: N` | N seconds are taken off the lifetime: the response was that old when it arrived |
/// | `Retry-After` (seconds, or a date measured against `Date`) | the moment before which not to ask again, at most ``RetryPolicy/longestServerWait`` away |
/// | `Last-Modified` | kept as written, for `If-Modified-Since`, when it is a date |
///
/// `s-maxage`, `proxy-revalidate`, `private` and `public` concern shared caches and change nothing here; a response
/// without any lifetime gets the configured `expirationTime` (no heuristic from `Last-Modified`).
///
/// A header that cannot be read is ignored (except `Expires`, where HTTP says so) with one log line in the
/// ``ReposeLog/Category/staleness`` category, so make one value per response, not one per question.
struct HTTPFreshness: Equatable, Sendable {
    /// Seconds after receipt during which the response is fresh by its own headers, `Age` already taken off and
    /// never below 0; 0 means stale at once (`no-cache`, `no-store`, `Vary: *`, `max-age=0`, an invalid `max-age`,
    /// `must-revalidate` without a lifetime). `nil` when the headers set no lifetime: the configured
    /// `expirationTime` applies.
    let lifetime: TimeInterval?
    /// The `Age` header: how old the response already was when it arrived, 0 without one.
    let age: TimeInterval
    /// When the server asked not to be asked again before (`Retry-After`), in seconds since 1970 on the clock that
    /// stamped `receivedAt`; `nil` without one.
    let retryAfter: TimeInterval?
    /// How long after receipt ``retryAfter`` is, in seconds, never below 0 nor above
    /// ``RetryPolicy/longestServerWait`` (rule W5); `nil` without a `Retry-After`.
    let retryDelay: TimeInterval?
    /// The `Last-Modified` header as the server sent it, to send back unchanged as `If-Modified-Since` (rule R3);
    /// `nil` without one, or when it is not a valid HTTP date.
    let lastModified: String?

    /// Reads `headers` of a response received at `receivedAt` (seconds since 1970, on the service's clock).
    ///
    /// - Parameters:
    ///   - headers: The response's headers; names in any letter case (an entity's are lowercased already).
    ///   - receivedAt: When the response arrived.
    init(headers: [String: String], receivedAt: TimeInterval) {
        let reader = HeaderReader(headers: headers, receivedAt: receivedAt)
        let age = reader.age()
        self.age = age
        lifetime = reader.explicitLifetime().map { max(0, $0 - age) }
        retryDelay = reader.retryDelay().map { min($0, RetryPolicy.longestServerWait) }
        retryAfter = retryDelay.map { receivedAt + $0 }
        lastModified = reader.lastModified()
    }

    /// Reads the headers of `entity`, received at its timestamp.
    init(entity: Entity<Any>) {
        self.init(headers: entity.headers, receivedAt: entity.timestamp)
    }

    /// Reads the headers of the response behind `error` (a 429 or 503, say), received at the error's timestamp.
    /// An error without a response (a transport failure) has no headers.
    init(error: RequestError) {
        self.init(headers: error.entity?.headers ?? [:], receivedAt: error.timestamp)
    }

    /// How long after receipt the data is fresh: ``lifetime`` when the headers set one, else `configured` (the
    /// configuration's `expirationTime`) less ``age``, never below 0.
    func expirationTime(configured: TimeInterval) -> TimeInterval {
        lifetime ?? max(0, configured - age)
    }

    /// Whether the data must be revalidated before any use (rule R2).
    var isStaleAtOnce: Bool { lifetime == 0 }
}

/// Reads one header at a time, logging the ones it cannot read.
private struct HeaderReader {
    let headers: [String: String]
    let receivedAt: TimeInterval
    /// The `Date` header, or the time received when it is missing or unreadable.
    private(set) var date: TimeInterval = 0

    init(headers: [String: String], receivedAt: TimeInterval) {
        self.headers = headers
        self.receivedAt = receivedAt
        date = readDate()
    }

    func value(_ name: String) -> String? {
        if let value = headers[name] { return value }
        return headers.first { $0.key.lowercased() == name }?.value
    }

    /// `max-age`, else `Expires` − `Date`, else nothing (rules R1, W4). 0 when the response may not be reused
    /// without asking the server: `no-cache`, `no-store` or `Vary: *`, whatever lifetime it also gives; a `max-age`
    /// that cannot be read (RFC 9111 §4.2.1 encourages taking invalid freshness information as stale); or
    /// `must-revalidate` with no lifetime, where the configured time would stand in for one the server never gave.
    func explicitLifetime() -> TimeInterval? {
        let cacheControl = CacheControl(value("cache-control"))
        for part in cacheControl.malformed {
            ignored("Cache-Control", part, "not a directive")
        }
        if cacheControl.requiresRevalidation || cacheControl.forbidsStoring || variesOnEverything { return 0 }
        switch cacheControl.maxAge {
        case .seconds(let seconds):
            return seconds
        case .invalid(let text):
            log("Cache-Control max-age \(text.debugDescription) is not a number of seconds: the response is stale")
            return 0
        case .absent:
            break
        }
        guard let expiresText = value("expires") else {
            return cacheControl.directives.keys.contains("must-revalidate") ? 0 : nil
        }
        guard let expires = HTTPDate.seconds(from: expiresText, now: receivedAt) else {
            // HTTP: an Expires that is not a date (often "0") means already expired.
            log("Expires \(expiresText.debugDescription) is not a date: the response is stale at once")
            return 0
        }
        return expires - date
    }

    /// Whether `Vary` lists `*`: the response depends on more than the request's headers (RFC 9111 §4.1).
    private var variesOnEverything: Bool {
        guard let vary = value("vary") else { return false }
        return vary.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == "*" }
    }

    private func readDate() -> TimeInterval {
        guard let text = value("date") else { return receivedAt }
        guard let date = HTTPDate.seconds(from: text, now: receivedAt) else {
            ignored("Date", text, "not a date")
            return receivedAt
        }
        return date
    }

    func age() -> TimeInterval {
        guard let text = value("age") else { return 0 }
        switch DeltaSeconds(text) {
        case .seconds(let seconds):
            return seconds
        case .invalid, .absent:
            ignored("Age", text, "not a number of seconds")
            return 0
        }
    }

    /// `Retry-After` in seconds from receipt: a number of seconds, or a date measured against the response's own
    /// `Date`, so that a server whose clock is off still means what it says.
    func retryDelay() -> TimeInterval? {
        guard let text = value("retry-after") else { return nil }
        if case .seconds(let seconds) = DeltaSeconds(text) { return seconds }
        guard let instant = HTTPDate.seconds(from: text, now: receivedAt) else {
            ignored("Retry-After", text, "neither seconds nor a date")
            return nil
        }
        return max(0, instant - date)
    }

    /// `Last-Modified`, when it is a date: kept as written, since a validator goes back to the server verbatim.
    func lastModified() -> String? {
        guard let text = value("last-modified") else { return nil }
        guard HTTPDate.seconds(from: text, now: receivedAt) != nil else {
            ignored("Last-Modified", text, "not a date")
            return nil
        }
        return text
    }

    private func ignored(_ header: String, _ text: String, _ reason: String) {
        log("Ignored \(header) \(text.debugDescription): \(reason)")
    }

    private func log(_ message: @autoclosure () -> String) {
        ReposeLog.log(.staleness, message())
    }
}
