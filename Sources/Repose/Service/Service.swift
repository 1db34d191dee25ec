import Foundation

/// A REST API: the base URL, the networking, the configuration, and one ``Resource`` per URL.
///
/// Create one service per API and keep it for the app's lifetime:
///
/// ```swift
/// let api = Service(baseURL: "https://api.example.com/v1")
/// let user = api.resource("/users/42")     // always the same object for the same URL
/// ```
@MainActor
public final class Service {
    /// What the service's resources share with it; they hold this, not the service, so that dropping the service
    /// frees everything it held (see ``ServiceCore``).
    let core: ServiceCore
    /// The memory-warning subscription on Apple platforms; kept so that it lives as long as the service.
    private var memoryWarningObserver: (any NSObjectProtocol)?

    /// The base URL that ``resource(_:)`` resolves paths against, with a trailing slash added to its path; `nil` if
    /// none was given or it could not be parsed.
    public var baseURL: URL? { core.baseURL }
    /// What sends requests over the network.
    public var networking: any NetworkingProvider { core.networking }
    /// Where timestamps and staleness come from: seconds since 1970, read from ``scheduler``.
    var now: @Sendable () -> TimeInterval { core.now }
    /// The service's clock, which also runs delayed work on the main actor.
    var scheduler: any Scheduler & Sendable { core.scheduler }
    var resourceTable: ResourceTable { core.resourceTable }

    /// Creates a service.
    ///
    /// - Parameters:
    ///   - baseURL: The API's base URL, as a string. An unparseable one behaves like none: ``resource(_:)`` then
    ///     gives resources whose requests fail, while ``resource(absoluteURL:)-(URL)`` still works.
    ///   - options: The parts to use instead of the defaults: networking, clock, built-in parsers.
    public init(baseURL: String? = nil, options: Options = Options()) {
        core = ServiceCore(
            baseURL: URLBuilding.serviceBaseURL(baseURL), networking: options.networking,
            clock: ServiceClock.reading(options.scheduler), scheduler: options.scheduler, limits: options.limits)
        core.attach(self)
        installStandardTransformers(options.standardTransformers)
        memoryWarningObserver = flushOnMemoryWarnings()
        reloadStaleResources(on: [options.reconnected, options.becameActive])
        core.reconnected = options.reconnected
        if options.outbox.storage != nil {
            _ = core.writes.outbox(of: core, store: options.outbox)  // reads the folder now: sent at launch
        }
        sendOutbox(on: options.reconnected)
    }

    /// Creates a service from a base `URL`; `options` are those of the `String` form. A literal `nil` picks the
    /// `String` form (this one is disfavoured), so `Service(baseURL: nil)` needs no type annotation.
    @_disfavoredOverload
    public convenience init(baseURL: URL?, options: Options = Options()) {
        self.init(baseURL: baseURL?.absoluteString, options: options)
    }

    /// A new handle on a core whose service the app had dropped; see ``ServiceCore/service``.
    init(core: ServiceCore) {
        self.core = core
        memoryWarningObserver = flushOnMemoryWarnings()
    }

    isolated deinit {
        if let memoryWarningObserver {
            NotificationCenter.default.removeObserver(memoryWarningObserver)
        }
        core.writes.outbox?.serviceReleased()
        core.serviceReleased()
    }

    // MARK: Resources

    /// The resource at `path` under ``baseURL``. A leading slash is optional; special characters are escaped, so
    /// `?` is part of the path, not a query.
    public func resource(_ path: String) -> Resource {
        core.resource(path: path)
    }

    /// The resource at `path` under another base URL than the service's. A literal `nil` picks the `String` form.
    @_disfavoredOverload
    public func resource(baseURL: URL?, path: String) -> Resource {
        resource(baseURL: baseURL?.absoluteString, path: path)  // a URL is read through its text, as by `init`
    }

    /// The resource at `path` under another base URL than the service's. A `nil` or unparseable base gives a
    /// resource whose requests fail with ``RequestError/Cause/InvalidURL``.
    public func resource(baseURL: String?, path: String) -> Resource {
        guard let base = URLBuilding.serviceBaseURL(baseURL) else { return invalidResource(source: path) }
        return core.resource(
            url: URLBuilding.resourceURL(base: base, path: path), source: path, reason: .forPath(path))
    }

    /// The resource at an absolute URL, ignoring ``baseURL``.
    public func resource(absoluteURL url: URL) -> Resource {
        resource(url: URLBuilding.absoluteURL(url), source: url.absoluteString)
    }

    /// The resource at an absolute URL string, ignoring ``baseURL``. A `nil` or unparseable string gives a
    /// resource whose requests fail with ``RequestError/Cause/InvalidURL``.
    ///
    /// Only this form takes `nil`, so a link read from a response needs no unwrapping and `resource(absoluteURL: nil)`
    /// has one meaning:
    ///
    /// ```swift
    /// let next = api.resource(absoluteURL: page.jsonDict["next"] as? String)
    /// ```
    public func resource(absoluteURL urlString: String?) -> Resource {
        resource(url: URLBuilding.absoluteURL(urlString), source: urlString)
    }

    func resource(url: URL?, source: String?) -> Resource {
        core.resource(url: url, source: source)
    }

    private func invalidResource(source: String?) -> Resource {
        core.invalidResource(source: source)
    }

    // MARK: Memory

    /// How many resources the service keeps before releasing unused ones (those with no observers and no
    /// requests in flight). Resources the app still holds keep their identity. 100 by default.
    ///
    /// Past the limit, each new resource releases those that became unused since the last one: a resource whose
    /// last request completed or whose observers were removed goes at once. One whose observers' owners were
    /// deallocated without removing them is noticed at its next change, or by a sweep that looks at one resource
    /// every eight new ones, round the table; call ``flushUnusedResources()`` to release those at once.
    public var cachedResourceCountLimit: Int {
        get { resourceTable.countLimit }
        set { resourceTable.countLimit = newValue }
    }

    /// Releases every resource that has no observers and no requests in flight. On Apple platforms this also
    /// happens on a memory warning.
    public func flushUnusedResources() {
        resourceTable.flushUnused()
    }
}
