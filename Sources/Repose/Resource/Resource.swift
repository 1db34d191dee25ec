import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The local picture of one REST resource: its latest data, its latest error, and the requests in flight.
///
/// A resource answers three questions: what is the latest data, did the last load fail, and is a request in
/// progress. Observers hear about every change to those answers, whoever caused it. Get resources from a
/// ``Service``; there is one instance per URL.
@MainActor
public final class Resource {
    /// A change applied to a request before it is sent. See ``Configuration/mutateRequests(with:)``.
    public typealias RequestMutation = @MainActor (inout URLRequest) -> Void

    /// What this resource shares with its service. A resource holds the core, not the ``Service``, so that an app
    /// that drops its service frees it (see ``ServiceCore``).
    let core: ServiceCore
    /// The service this resource belongs to.
    ///
    /// A resource keeps its service's networking and configuration alive, but not the `Service` object: if the app
    /// dropped it, this returns a new `Service` with the same configuration and resources.
    public var service: Service { core.service }
    /// The resource's canonical URL.
    public let url: URL
    /// For a resource whose URL could not be built, the text it came from and why; its requests all fail.
    let invalidURL: (source: String, reason: InvalidURLReason)?
    /// For a resource whose URL could not be built, the text it came from.
    var invalidURLSource: String? { invalidURL?.source }
    /// Why the URL could not be built, for a resource with an ``invalidURLSource``.
    var invalidURLReason: InvalidURLReason { invalidURL?.reason ?? .unbuildable }

    // Unchecked exclusivity on `record` and `configurations`: each access is a read, or a write that ends before
    // any call into app code (`apply(_:)` changes the record, then notifies; configuration closures run before the
    // result is stored), and the resource lives on the main actor, so no two accesses overlap. The dynamic checks
    // were a large part of a fresh `loadIfNeeded()`, which apps call freely.

    /// What the resource knows: its latest data and error, and whether they were declared stale. Changed only
    /// through ``apply(_:)``.
    @exclusivity(unchecked) private(set) var record = ResourceRecord()
    /// The requests in flight: the loads, and every request that concerns this resource.
    var requests = ResourceRequests()
    /// The loads in flight, oldest first.
    public var loadRequests: [Request] { requests.loads }
    /// Every request in flight that concerns this resource, loads included, oldest first.
    public var allRequests: [Request] { requests.all }
    /// Who hears about changes: observers, and through them the resource's signals.
    var observers = ResourceObservers()
    var signals: ResourceSignals?
    /// Where reading the persistent caches stands, with the work waiting for it.
    var cacheCheck = CacheCheck.notStarted
    /// This resource's configuration, built on first use and rebuilt after the service's configuration changes.
    @exclusivity(unchecked) var configurations = ResourceConfigurations()
    /// The latest monitored request's metrics, for the inspector; only a monitored request sets it (rule X1).
    var latestMetrics: RequestMetrics?

    init(
        core: ServiceCore, url: URL, invalidURLSource: String? = nil,
        invalidURLReason: InvalidURLReason = .unbuildable
    ) {
        self.core = core
        self.url = url
        invalidURL = invalidURLSource.map { ($0, invalidURLReason) }
    }

    // MARK: State

    /// The latest valid data: from a load, a cache, or a local override. It survives errors: after a failed load
    /// it still holds the last good (now stale) data.
    ///
    /// With a persistent cache configured, the app's first read of it starts reading the cache (rule H1), and a
    /// hit arrives later as ``ResourceEvent/newData(_:)`` with `.cache`. That is the only property of a resource
    /// whose reading does anything; Repose's own code reads the resource's record instead.
    public var latestData: Entity<Any>? {
        if case .notStarted = cacheCheck { startCacheCheck() }
        return record.latestData
    }

    /// The error from the latest load, if it failed. Cleared by the next success.
    public var latestError: RequestError? { record.latestError }

    /// Whether ``latestData`` is part of a streamed body (see ``StreamedContent``): while the body arrives, and
    /// after a failure cut it short, with ``latestError`` beside it. False once a load completes it.
    public var isPartial: Bool { record.isPartialData }

    /// Applies `change` to ``record`` and tells observers what it means. Every change of the resource's data goes
    /// through here.
    func apply(_ change: ResourceRecord.Change) {
        if let event = record.apply(change) {
            notifyObservers(event)
        }
    }

    /// The time of the latest change to ``latestData`` or ``latestError``, whichever is later.
    public var timestamp: TimeInterval { record.timestamp }

    /// Whether a load is in flight: its result will update ``latestData`` or ``latestError``.
    public var isLoading: Bool { !loadRequests.isEmpty }

    /// Whether any request concerning this resource is in flight.
    public var isRequesting: Bool { !requests.tracked.isEmpty }

    /// Whether this resource is used: observed, or with requests in flight. Unused resources may be released.
    var isInUse: Bool { isObserved || isRequesting }

    /// Whether anything observes this resource: an observer, or a signal subscription whose owner is alive. The
    /// signals end subscriptions with dead owners first (removing the observers that fed them), then the observer
    /// registry answers: each part keeps its own books.
    var isObserved: Bool {
        sweepSignalSubscriptions()
        return hasObservers
    }

    /// Makes the service hold this resource strongly again if it was let go; called whenever it gains an observer
    /// or a request (rules B20, D13).
    func markInUse() {
        core.resourceTable.markInUse(self)
    }

    /// Tells the service's table that this resource may be unused now (rules B21, D13), so that it need not look
    /// at every resource to find out.
    func noteMaybeUnused() {
        core.resourceTable.noteMaybeUnused(self)
    }
}

extension Resource: @MainActor TypedContentAccessors {
    /// The latest data, so that `resource.text`, `resource.jsonDict` and `typedContent()` read it.
    public var entityForTypedContentAccessors: Entity<Any>? { latestData }
}

/// What a resource knows about its data: the latest data, the latest error, and whether they are still fresh.
/// One value, changed only by ``apply(_:)``, which also says what observers should hear.
///
/// Everything a resource's state goes through is a ``Change``: a load starting, ending in any way, a cache hit, a
/// local override, an invalidation, a wipe, an optimistic change starting, settling or ending. One function stays
/// the only place the rules of sections A, B and M live.
///
/// With optimistic changes pending, the record keeps the server's data beneath them (``layers``) and
/// ``latestData`` is what they make of it, computed once per change so that reading it costs what it always did.
struct ResourceRecord {
    /// The latest valid data as shown: from a load, a cache, or a local override, with any pending optimistic
    /// changes applied.
    private(set) var latestData: Entity<Any>?
    // The two flags sit right after the data, in the byte its optional leaves before the next word: stored
    // properties are laid out in order, and a flag before a word costs a word of padding in every resource.
    /// Set by ``Change/invalidated``; cleared by the next completed load or local override (rules A33–A35).
    private(set) var isInvalidated = false
    /// Whether the data is the app's own (a local override) rather than what a server sent: then it has no
    /// validator a load could send, since a 304 would confirm data the server never had.
    private(set) var isLocalData = false
    /// Whether the data is what a streamed load's body made of it so far (rule U3): set by ``Change/grew``, cleared
    /// by the next data that is not.
    private(set) var isPartialData = false
    /// The error from the latest load, if it failed; cleared by the next success or local override.
    private(set) var latestError: RequestError? {
        get { failure?.error }
        set { failure = newValue.map(Failure.init) }
    }
    /// `latestError`'s storage. Boxed: a `RequestError` is many words wide, which every resource would otherwise
    /// carry inline, failed or not; only a failure pays for the box.
    private var failure: Failure?
    /// What freshness reads, kept by ``apply(_:)`` beside the data and error it comes from.
    private(set) var freshness = Freshness()
    /// The pending optimistic changes and the server's data beneath them; `nil` when no change is pending, and then
    /// ``latestData`` is the server's data.
    private(set) var layers: PendingLayers?
    /// How many changes have settled so far (their writes succeeded): a load started when this was `n` brings
    /// data that already holds every change settled at `n` or before.
    private(set) var settleCount = 0
    /// How many local overrides there have been: a 304 to a load started before the latest one confirms data the
    /// resource no longer holds.
    private(set) var overrideCount = 0

    /// The times freshness is decided from. A tuning that earns its keep: `loadIfNeeded()` asks on every call, and
    /// reading a timestamp through the optional entity or error copies the whole value, retaining every field, on
    /// every call.
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
        /// It replaces the changes that had settled when the load started (`settledBy`, a ``settleCount``; rule M4).
        case loaded(Entity<Any>, lifetime: TimeInterval?, settledBy: Int = .max)
        /// The server confirmed the data as current at this time (a 304, rules A12 and K8), with the stored headers
        /// updated by the 304's and the lifetime read from them (rule W4; `nil` follows `expirationTime`).
        case confirmed(
            at: TimeInterval, headers: [String: String]? = nil, lifetime: TimeInterval? = nil, settledBy: Int = .max)
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
        /// An event stream sent new content for the resource, already parsed by its pipeline (rule V3). It replaces
        /// the server's data as a load would, beneath any pending changes.
        case streamed(Entity<Any>)
        /// A streamed load's body arrived further: its content so far replaces the server's data, marked partial
        /// until the load completes (rule U3).
        case grew(Entity<Any>)
        /// The app declared the data stale (rule A33).
        case invalidated
        /// The app wiped the resource (rule A36).
        case wiped
        /// A write started with an optimistic change (rules M1, M2).
        case changeStarted(PendingChange)
        /// Changes kept by the outbox from an earlier launch: they go beneath the changes started since.
        case changesRestored([PendingChange])
        /// A write succeeded. With the target's new data from its response, that data replaces the server's and
        /// the change goes in the same step; without, the change stays until a later load brings data (rule M4).
        case changeSucceeded(id: Int, data: Entity<Any>?, lifetime: TimeInterval?)
        /// A write failed or was cancelled: only its change goes (rule M3).
        case changeFailed(id: Int)
    }

    /// Applies `change` and returns the event it means for observers, or `nil` when observers have nothing to hear.
    mutating func apply(_ change: Change) -> ResourceEvent? {
        switch change {
        case .loadStarted:
            return .requested
        case .loaded(let entity, let lifetime, let settledBy):
            replaceData(with: entity, lifetime: lifetime, keepingChanges: { ($0.settledAt ?? .max) > settledBy })
            return .newData(.network)
        case .confirmed(let time, let headers, let lifetime, let settledBy):
            if var data = serverData {
                data.timestamp = time
                if let headers { data.replaceHeaders(with: headers) }
                replaceServerData(with: data, keepingChanges: { ($0.settledAt ?? .max) > settledBy })
            }
            freshness.dataTime = time
            freshness.dataLifetime = lifetime
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
            guard serverData == nil, latestError == nil else { return nil }
            replaceServerData(with: entity, keepingChanges: { _ in true })
            freshness.dataTime = entity.timestamp
            freshness.dataLifetime = lifetime
            return .newData(.cache)
        case .overridden(let entity):
            replaceData(with: entity, lifetime: nil, keepingChanges: { $0.settledAt == nil })
            isLocalData = true
            overrideCount += 1
            return .newData(.localOverride)
        case .streamed(let entity):
            replaceData(with: entity, lifetime: nil, keepingChanges: { $0.settledAt == nil })
            return .newData(.eventStream)
        case .grew(let entity):
            replaceData(with: entity, lifetime: nil, keepingChanges: { $0.settledAt == nil })
            isPartialData = true
            return .newData(.partial)
        case .invalidated:
            isInvalidated = true
            return nil
        case .wiped:
            self = ResourceRecord()
            return .newData(.wipe)
        default:
            return applyPendingChange(change)
        }
    }

    /// The write cases of ``apply(_:)``.
    private mutating func applyPendingChange(_ change: Change) -> ResourceEvent? {
        switch change {
        case .changeStarted(let pending):
            // Applied once, over what shows already, rather than the whole stack again (rule T4).
            var stack = layers ?? PendingLayers(serverData: latestData, changes: [])
            layers = nil
            stack.append(pending)
            layers = stack
            latestData = pending.change.applied(to: latestData, at: pending.startedAt)
            return .newData(.optimistic)
        case .changesRestored(let restored):
            setLayers(serverData: serverData, changes: restored + (layers?.changes ?? []))
        case .changeSucceeded(let id, let data?, let lifetime):
            // The response holds this change and every one that settled before it.
            replaceData(with: data, lifetime: lifetime, keepingChanges: { $0.id != id && $0.settledAt == nil })
            return .newData(.network)
        case .changeSucceeded(let id, nil, _):
            guard var stack = layers else { return nil }
            layers = nil
            if stack.settle(id, at: settleCount + 1) { settleCount += 1 }
            layers = stack
            return nil  // nothing shows differently: the change stays until the server's data replaces it
        case .changeFailed(let id):
            guard let changes = layers?.changes, changes.contains(where: { $0.id == id }) else { return nil }
            setLayers(serverData: serverData, changes: changes.filter { $0.id != id })
        default:
            return nil
        }
        return .newData(.optimistic)
    }

    /// The server's data: ``latestData`` as it would show without the pending changes.
    var serverData: Entity<Any>? {
        layers.map(\.serverData) ?? latestData
    }

    private mutating func replaceData(
        with entity: Entity<Any>, lifetime: TimeInterval?, keepingChanges keep: (PendingChange) -> Bool
    ) {
        replaceServerData(with: entity, keepingChanges: keep)
        isLocalData = false
        isPartialData = false
        freshness.dataTime = entity.timestamp
        freshness.dataLifetime = lifetime
        clearError()
    }

    /// Puts `entity` beneath the pending changes that `keep` accepts (rule M5).
    private mutating func replaceServerData(
        with entity: Entity<Any>, keepingChanges keep: (PendingChange) -> Bool
    ) {
        guard let layers else {
            latestData = entity
            return
        }
        setLayers(serverData: entity, changes: layers.changes.filter(keep))
    }

    /// Stores the layers and computes what they show, once.
    private mutating func setLayers(serverData: Entity<Any>?, changes: [PendingChange]) {
        if changes.isEmpty {
            layers = nil
            latestData = serverData
        } else {
            let layers = PendingLayers(serverData: serverData, changes: changes)
            latestData = layers.shown
            self.layers = layers
        }
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
