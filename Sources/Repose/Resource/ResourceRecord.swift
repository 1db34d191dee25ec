import Foundation

/// What a resource knows about its data: the latest data, the latest error, and whether they are still fresh.
/// One value, changed only by ``apply(_:)``, which also says what observers should hear.
///
/// Everything a resource's state goes through is a ``Change``: a load starting, ending in any way, a cache hit, a
/// local override, an invalidation, a wipe. State still to come (pending optimistic changes) belongs here too, so
/// that one function stays the only place the rules of sections A and B live.
struct ResourceRecord {
    /// The latest valid data: from a load, a cache, or a local override.
    private(set) var latestData: Entity<Any>?
    /// The error from the latest load, if it failed; cleared by the next success or local override.
    private(set) var latestError: RequestError? {
        get { failure?.error }
        set { failure = newValue.map(Failure.init) }
    }
    /// `latestError`'s storage. Boxed: a `RequestError` is 128 bytes, which every resource would otherwise carry
    /// inline, failed or not (122 of the 1,228 bytes per resource measured by `Memory per resource with data and
    /// observer`); only a failure pays for the box.
    private var failure: Failure?
    /// Set by ``Change/invalidated``; cleared by the next completed load or local override (rules A33–A35).
    private(set) var isInvalidated = false
    /// What freshness reads, kept by ``apply(_:)`` beside the data and error it comes from.
    private(set) var freshness = Freshness()

    /// The times freshness is decided from. A tuning that earns its keep: `loadIfNeeded()` asks on every call, and
    /// reading a timestamp through the optional entity or error copies the whole value, retaining every field
    /// (131 ns per fresh `loadIfNeeded()` against 62 ns; the budget is 100 ns).
    struct Freshness {
        /// When the data arrived or was last confirmed.
        var dataTime: TimeInterval?
        /// When the latest load failed, if the latest error stands.
        var errorTime: TimeInterval?
        /// How long the data stays fresh by its response's own headers (rule R1); `nil` to follow the
        /// configuration's `expirationTime`.
        var dataLifetime: TimeInterval?
        /// Before this time the server asked not to be asked again (`Retry-After`, rule R4).
        var retryAfter: TimeInterval?
    }

    /// Something that happened to the resource's data.
    enum Change {
        /// A load started (rule B8). Nothing changes yet.
        case loadStarted
        /// A load brought new data, stamped with the time it arrived, fresh for `lifetime` if its headers set one.
        case loaded(Entity<Any>, lifetime: TimeInterval?)
        /// The server confirmed the data as current at this time (a 304, rules A12 and K8). Its lifetime stays.
        case confirmed(at: TimeInterval)
        /// `loadIfNeeded()` found the data fresh after reading the caches: the load ends without the network, and
        /// without making the data any younger (rule H4).
        case reused
        /// A load failed with this error, stamped with the time it failed; `retryAfter` is the server's wish.
        case failed(RequestError, retryAfter: TimeInterval?)
        /// A load was cancelled: it consumes no invalidation (rule A35).
        case cancelled
        /// A persistent cache had this entity; it applies only while the resource has neither data nor error.
        case cached(Entity<Any>, lifetime: TimeInterval?)
        /// The app replaced the data (rules A30, A31).
        case overridden(Entity<Any>)
        /// The app declared the data stale (rule A33).
        case invalidated
        /// The app wiped the resource (rule A36).
        case wiped
    }

    /// Applies `change` and returns the event it means for observers, or `nil` when observers have nothing to hear.
    mutating func apply(_ change: Change) -> ResourceEvent? {
        switch change {
        case .loadStarted:
            return .requested
        case .loaded(let entity, let lifetime):
            replaceData(with: entity, lifetime: lifetime)
            return .newData(.network)
        case .confirmed(let time):
            latestData?.timestamp = time
            freshness.dataTime = time
            clearError()
            return .notModified
        case .reused:
            return .notModified
        case .failed(let error, let retryAfter):
            latestError = error
            freshness.errorTime = error.timestamp
            freshness.retryAfter = retryAfter
            isInvalidated = false
            return .error
        case .cancelled:
            return .requestCancelled
        case .cached(let entity, let lifetime):
            guard latestData == nil, latestError == nil else { return nil }
            latestData = entity
            freshness.dataTime = entity.timestamp
            freshness.dataLifetime = lifetime
            return .newData(.cache)
        case .overridden(let entity):
            replaceData(with: entity, lifetime: nil)
            return .newData(.localOverride)
        case .invalidated:
            isInvalidated = true
            return nil
        case .wiped:
            self = ResourceRecord()
            return .newData(.wipe)
        }
    }

    private mutating func replaceData(with entity: Entity<Any>, lifetime: TimeInterval?) {
        latestData = entity
        freshness.dataTime = entity.timestamp
        freshness.dataLifetime = lifetime
        clearError()
    }

    private mutating func clearError() {
        latestError = nil
        freshness.errorTime = nil
        freshness.retryAfter = nil
        isInvalidated = false
    }

    /// When the data or the error last changed, whichever is later; 0 for neither.
    var timestamp: TimeInterval {
        max(freshness.dataTime ?? 0, freshness.errorTime ?? 0)
    }

    /// Whether the data is fresh enough that `loadIfNeeded()` need not load (rules A22–A25, R1, R4): not
    /// invalidated, and younger than its lifetime; after a failure, the failure is younger than `retryTime`, or the
    /// server's `Retry-After` has not come yet.
    func isUpToDate(now: TimeInterval, expirationTime: TimeInterval, retryTime: TimeInterval) -> Bool {
        guard !isInvalidated else { return false }
        if let errorTime = freshness.errorTime {
            if now - max(errorTime, freshness.dataTime ?? 0) < retryTime { return true }
            return freshness.retryAfter.map { now < $0 } ?? false
        }
        guard let dataTime = freshness.dataTime else { return false }
        return now - dataTime < (freshness.dataLifetime ?? expirationTime)
    }

    /// When the data stops being fresh, if there is data and it is not stale already by invalidation.
    func dataTurnsStale(expirationTime: TimeInterval) -> TimeInterval? {
        guard !isInvalidated, let dataTime = freshness.dataTime else { return nil }
        return dataTime + (freshness.dataLifetime ?? expirationTime)
    }

    /// Whether there is data and it is older than its lifetime or invalidated (rule R7). Failures do not count:
    /// they say nothing about the data's age.
    func isDataStale(now: TimeInterval, expirationTime: TimeInterval) -> Bool {
        guard freshness.dataTime != nil else { return false }
        guard let turnsStale = dataTurnsStale(expirationTime: expirationTime) else { return true }
        return now >= turnsStale
    }
}

/// A failure kept by reference (see ``ResourceRecord/latestError``).
private final class Failure {
    let error: RequestError
    init(_ error: RequestError) { self.error = error }
}
