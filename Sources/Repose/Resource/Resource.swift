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
