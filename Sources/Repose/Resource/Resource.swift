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
    /// For a resource whose URL could not be built, the text it came from; its requests all fail.
    let invalidURLSource: String?

    /// The latest valid data: from a load, a cache, or a local override. It survives errors: after a failed load
    /// it still holds the last good (now stale) data.
    ///
    /// With a persistent cache configured, the first read starts reading the cache; a hit arrives later as
    /// ``ResourceEvent/newData(_:)`` with `.cache`.
    public internal(set) var latestData: Entity<Any>? {
        get {
            if cacheCheck == .notStarted { startCacheCheck() }
            return storedLatestData
        }
        set { storedLatestData = newValue }
    }
    var storedLatestData: Entity<Any>? {
        didSet { dataTimestamp = storedLatestData?.timestamp }
    }
    /// The error from the latest load, if it failed. Cleared by the next success.
    public internal(set) var latestError: RequestError? {
        didSet { errorTimestamp = latestError?.timestamp }
    }
    /// `latestData?.timestamp` and `latestError?.timestamp`, kept in step with them as plain numbers so that
    /// freshness checks copy neither struct (each copy retains every field).
    private(set) var dataTimestamp: TimeInterval?
    private(set) var errorTimestamp: TimeInterval?
    /// The loads in flight, oldest first.
    public internal(set) var loadRequests: [Request] = []
    /// Every request in flight that concerns this resource, loads included, oldest first.
    public internal(set) var allRequests: [Request] = []

    /// Set by ``invalidate()``; cleared by the next completed load or local override.
    var isInvalidated = false
    var observers: [ResourceObserverEntry] = []
    /// How many of `observers` are not closure observers: while none are, notifying has nothing to prune first.
    var objectObserverCount = 0
    /// The number the next closure observer takes if it does not join the run of the one before it.
    var nextOwnerRun = 0
    var signals = ResourceSignals()
    var cacheCheck = CacheCheck.notStarted
    /// Set while a flush has left this resource only weakly held by the service; becoming used again re-retains it.
    var isHeldWeaklyByService = false
    var cacheCheckWaiters: [@MainActor () -> Void] = []

    private var cachedConfigurations: [RequestMethod: Configuration] = [:]
    private var cachedConfigurationVersion = -1
    /// GET's `expirationTime` and `retryTime` as plain numbers, with the configuration version they came from, so
    /// that ``isUpToDate`` copies no `Configuration` (a struct of arrays and closures, several retains).
    private var freshnessLimits = (expirationTime: 0.0, retryTime: 0.0, version: -1)

    /// Makes the service hold this resource strongly again if a flush demoted it; called whenever it gains an
    /// observer or a request (rules B20, D13).
    func markInUse() {
        if isHeldWeaklyByService {
            core.resourceCache.promote(self)
        }
    }

    init(core: ServiceCore, url: URL, invalidURLSource: String? = nil) {
        self.core = core
        self.url = url
        self.invalidURLSource = invalidURLSource
    }

    /// The time of the latest change to ``latestData`` or ``latestError``, whichever is later.
    public var timestamp: TimeInterval {
        max(dataTimestamp ?? 0, errorTimestamp ?? 0)
    }

    /// Whether a load is in flight: its result will update ``latestData`` or ``latestError``.
    public var isLoading: Bool { !loadRequests.isEmpty }

    /// Whether any request concerning this resource is in flight.
    public var isRequesting: Bool { !allRequests.isEmpty }

    /// Whether this resource is used: observed, or with requests in flight. Unused resources may be released.
    var isInUse: Bool { isObserved || isRequesting }

    /// Whether anything observes this resource: an observer, or a signal subscription whose owner is alive. The
    /// signals end subscriptions with dead owners first (removing the observers that fed them), then the observer
    /// registry answers: each part keeps its own books.
    var isObserved: Bool {
        sweepSignalSubscriptions()
        return hasObservers
    }

    // MARK: Configuration

    /// This resource's configuration for GET requests (and loads).
    public var configuration: Configuration {
        configuration(for: .get)
    }

    /// This resource's configuration for requests with `method`.
    public func configuration(for method: RequestMethod) -> Configuration {
        if cachedConfigurationVersion != core.configurationVersion {
            cachedConfigurations.removeAll(keepingCapacity: true)
            cachedConfigurationVersion = core.configurationVersion
        }
        if let cached = cachedConfigurations[method] { return cached }
        let built = core.buildConfiguration(for: url, method: method)
        cachedConfigurations[method] = built
        return built
    }

    /// How long GET data and errors stay fresh: the configuration's `expirationTime` and `retryTime`.
    var freshnessLimit: (expirationTime: TimeInterval, retryTime: TimeInterval) {
        if freshnessLimits.version != core.configurationVersion {
            let configuration = configuration(for: .get)
            freshnessLimits = (configuration.expirationTime, configuration.retryTime, core.configurationVersion)
        }
        return (freshnessLimits.expirationTime, freshnessLimits.retryTime)
    }
}

extension Resource: @MainActor TypedContentAccessors {
    /// The latest data, so that `resource.text`, `resource.jsonDict` and `typedContent()` read it.
    public var entityForTypedContentAccessors: Entity<Any>? { latestData }
}
