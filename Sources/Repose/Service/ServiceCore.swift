import Foundation

/// What a service's resources need from it: the base URL, the networking, the clock, the configuration and the
/// table of resources.
///
/// Resources hold this core, not the ``Service`` the app holds, so that the app's reference alone decides the
/// service's life: while the app holds the `Service`, the core holds resources strongly (in use, or cached up to
/// the count limit); once the app drops it, the core lets go of every resource, and the core itself goes with
/// the last resource anybody still uses. A resource the app keeps still works, and ``Resource/service`` hands
/// the app a `Service` for this core again.
@MainActor
final class ServiceCore {
    let baseURL: URL?
    let networking: any NetworkingProvider
    /// Where timestamps and staleness come from: seconds since 1970, read from ``scheduler`` (see
    /// ``ServiceClock``). Nothing else in Repose reads the time.
    let now: @Sendable () -> TimeInterval
    /// The service's clock. Waits go through ``timers``, which runs them on it.
    let scheduler: any Scheduler & Sendable

    /// Every wait: polls, staleness, retries, reconnects, time limits, delayed cancels, end-of-turn work.
    let timers: Timers
    let resourceTable = ResourceTable(countLimit: 100)
    /// Moves the progress of requests waiting for a response: one tick for the whole service.
    lazy var progressTicker = ProgressTicker(timers: timers)
    var configurationEntries: [ConfigurationEntry] = []
    /// Bumped whenever configuration changes, so that resources recompute their cached configuration.
    private(set) var configurationVersion = 0
    /// Configurations already built, by method and the entries that matched: resources whose URLs match the same
    /// entries share one object instead of each building, and holding, a pipeline of its own.
    var sharedConfigurations: [SharedConfigurationKey: BuiltConfiguration] = [:]
    /// Reloads after writes, and the outbox (`Writes/`).
    let writes: WriteBooks
    /// Where requests wait while the service's ``RequestLimits`` hold them back.
    let requestQueue: RequestQueue
    /// The service's reconnect signal (rule R8), which event streams hear as well (rule V4).
    var reconnected: Signal<Void>?
    /// The event streams running for this service, stopped when the app drops it (rule V4).
    let eventStreams = EventStreamBook()
    /// The request monitors (rule X1); none, the usual case, measures nothing.
    let monitors = RequestMonitors()

    /// The `Service` the app holds for this core, while it holds one.
    private weak var handle: Service?

    init(
        baseURL: URL?, networking: any NetworkingProvider, clock: @escaping @Sendable () -> TimeInterval,
        scheduler: any Scheduler & Sendable, limits: RequestLimits = .unlimited
    ) {
        self.baseURL = baseURL
        self.networking = networking
        self.now = clock
        self.scheduler = scheduler
        timers = Timers(scheduler: scheduler, now: clock)
        writes = WriteBooks(timers: timers)
        requestQueue = RequestQueue(limits: limits, now: clock)
    }

    /// The app's `Service` for this core; if the app dropped it, a new one, which holds resources again for as
    /// long as the app keeps it.
    var service: Service {
        if let handle { return handle }
        let revived = Service(core: self)
        attach(revived)
        return revived
    }

    func attach(_ service: Service) {
        handle = service
        resourceTable.retainsResources = true
    }

    /// The app dropped its `Service`: hold no resource strongly any more, so that nothing the app does not use
    /// stays alive.
    func serviceReleased() {
        resourceTable.releaseAll()
        eventStreams.serviceReleased()
    }

    func configurationChanged() {
        configurationVersion &+= 1
        sharedConfigurations.removeAll()
    }

    // MARK: Resources

    /// The resource at `path` under ``baseURL``.
    func resource(path: String) -> Resource {
        // A path seen before goes straight to its canonical key: building and parsing the URL is most of the cost.
        if let known = resourceTable.resource(forPath: path) { return known }
        guard let baseURL else { return invalidResource(source: path) }
        guard let url = resourceURL(base: baseURL, path: path) else {
            return invalidResource(source: path, reason: .forPath(path))
        }
        let key = ResourceKey(url.absoluteString)
        if let existing = resourceTable.resource(forKey: key) {
            // Remembered on the second lookup, not the first: a path looked up once (most of a list's rows) costs
            // no entry, whose insert and the table's growth were a large share of making a resource in a big table.
            resourceTable.remember(path: path, key: key)
            return existing
        }
        return create(url: url, key: key)
    }

    /// The base URL split around where paths go, made on the first lookup of a new path.
    private lazy var baseTemplate = baseURL.flatMap(URLBuilding.BaseTemplate.init(base:))

    /// `URLBuilding.resourceURL(base:path:)`, by joining text for a path that needs no escaping.
    private func resourceURL(base: URL, path: String) -> URL? {
        if let text = baseTemplate?.urlString(forPath: path) { return URL(string: text) }
        return URLBuilding.resourceURL(base: base, path: path)
    }

    func resource(url: URL?, source: String?, reason: @autoclosure () -> InvalidURLReason = .unbuildable) -> Resource {
        guard let url else { return invalidResource(source: source, reason: reason()) }
        return resource(url: url, key: ResourceKey(url.absoluteString))
    }

    private func resource(url: URL, key: ResourceKey) -> Resource {
        resourceTable.resource(forKey: key) ?? create(url: url, key: key)
    }

    private func create(url: URL, key: ResourceKey) -> Resource {
        let created = Resource(core: self, url: url)
        showPendingChanges(on: created)
        resourceTable.insert(created, forKey: key)
        return created
    }

    /// Shows on a resource just made the changes of writes still pending in the outbox for its URL: every
    /// instance for a URL shows them, one made after the app let an earlier one go, or after a relaunch, included
    /// (rule M8). Here rather than in the resource's initializer, so that a resource is made knowing no outbox.
    private func showPendingChanges(on resource: Resource) {
        guard let outbox = writes.outbox else { return }
        let changes = outbox.changes(showingOn: resource.url.absoluteString)
        if !changes.isEmpty { resource.apply(.changesRestored(changes)) }  // nothing observes it yet
    }

    /// A resource standing for a URL that could not be built; every request it makes fails at once.
    func invalidResource(source: String?, reason: InvalidURLReason = .unbuildable) -> Resource {
        let escaped = (source ?? "").addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let key = ResourceKey("repose-invalid-url:" + reason.keyPrefix + escaped)
        if let existing = resourceTable.resource(forKey: key) {
            return existing
        }
        let placeholder = URL(string: key.text) ?? URL(fileURLWithPath: "/")
        let created = Resource(core: self, url: placeholder, invalidURLSource: source ?? "", invalidURLReason: reason)
        showPendingChanges(on: created)
        resourceTable.insert(created, forKey: key)
        return created
    }
}
