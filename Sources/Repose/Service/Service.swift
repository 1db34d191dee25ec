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
    /// The base URL that ``resource(_:)`` resolves paths against, with a trailing slash added to its path; `nil` if
    /// none was given or it could not be parsed.
    public let baseURL: URL?
    /// What sends requests over the network.
    public let networking: any NetworkingProvider
    /// Where timestamps and staleness come from: seconds since 1970.
    let now: @Sendable () -> TimeInterval
    /// What runs delayed work on the main actor, such as ``Resource/cancelLoadIfUnobserved(afterDelay:then:)``.
    let scheduler: any Scheduler

    var resourceCache: ResourceCache
    /// The memory-warning subscription on Apple platforms; kept so that it lives as long as the service.
    private var memoryWarningObserver: (any NSObjectProtocol)?
    var configurationEntries: [ConfigurationEntry] = []
    /// Bumped whenever configuration changes, so that resources recompute their cached configuration.
    private(set) var configurationVersion = 0
    /// Configurations already built, by method and the entries that matched: resources whose URLs match the same
    /// entries share one (copy-on-write) value instead of each building, and holding, a pipeline of its own.
    var sharedConfigurations: [SharedConfigurationKey: Configuration] = [:]

    /// Creates a service.
    ///
    /// - Parameters:
    ///   - baseURL: The API's base URL, as a string. An unparseable one behaves like none: ``resource(_:)`` then
    ///     gives resources whose requests fail, while ``resource(absoluteURL:)-(URL?)`` still works.
    ///   - standardTransformers: Which built-in parsers to install (text and JSON by default).
    ///   - networking: What sends requests; `URLSessionProvider` by default.
    ///   - clock: The time source for timestamps and staleness, in seconds since 1970. Tests inject their own.
    ///   - scheduler: Runs delayed work on the main actor; tests pass a `TestScheduler` and advance it.
    public init(
        baseURL: String? = nil,
        standardTransformers: [StandardTransformer] = StandardTransformer.defaults,
        networking: any NetworkingProvider = URLSessionProvider(),
        clock: @escaping @Sendable () -> TimeInterval = { Date().timeIntervalSince1970 },
        scheduler: any Scheduler = MainScheduler()
    ) {
        self.baseURL = URLBuilding.serviceBaseURL(baseURL)
        self.networking = networking
        self.now = clock
        self.scheduler = scheduler
        self.resourceCache = ResourceCache(countLimit: 100)
        installStandardTransformers(standardTransformers)
        memoryWarningObserver = flushOnMemoryWarnings()
    }

    /// Creates a service from a base `URL`; the other parameters are those of the `String` form.
    public convenience init(
        baseURL: URL?,
        standardTransformers: [StandardTransformer] = StandardTransformer.defaults,
        networking: any NetworkingProvider = URLSessionProvider(),
        clock: @escaping @Sendable () -> TimeInterval = { Date().timeIntervalSince1970 },
        scheduler: any Scheduler = MainScheduler()
    ) {
        self.init(
            baseURL: baseURL?.absoluteString, standardTransformers: standardTransformers, networking: networking,
            clock: clock, scheduler: scheduler)
    }

    // MARK: Resources

    /// The resource at `path` under ``baseURL``. A leading slash is optional; special characters are escaped, so
    /// `?` is part of the path, not a query.
    public func resource(_ path: String) -> Resource {
        // A path seen before goes straight to its canonical key: building and parsing the URL is most of the cost.
        if let known = resourceCache.resource(forPath: path) { return known }
        guard let baseURL, let url = URLBuilding.resourceURL(base: baseURL, path: path) else {
            return invalidResource(source: path)
        }
        let key = url.absoluteString
        resourceCache.remember(path: path, key: key)
        return resource(url: url, key: key)
    }

    /// The resource at `path` under another base URL than the service's.
    public func resource(baseURL: URL?, path: String) -> Resource {
        guard let base = URLBuilding.serviceBaseURL(baseURL) else { return invalidResource(source: path) }
        return resource(url: URLBuilding.resourceURL(base: base, path: path), source: path)
    }

    /// The resource at `path` under another base URL than the service's.
    public func resource(baseURL: String?, path: String) -> Resource {
        guard let base = URLBuilding.serviceBaseURL(baseURL) else { return invalidResource(source: path) }
        return resource(url: URLBuilding.resourceURL(base: base, path: path), source: path)
    }

    /// The resource at an absolute URL, ignoring ``baseURL``. A `nil` URL gives a resource whose requests fail.
    public func resource(absoluteURL url: URL?) -> Resource {
        resource(url: url, source: url?.absoluteString)
    }

    /// The resource at an absolute URL string, ignoring ``baseURL``. A `nil` or unparseable string gives a
    /// resource whose requests fail with ``RequestError/Cause/InvalidURL``.
    public func resource(absoluteURL urlString: String?) -> Resource {
        resource(url: URLBuilding.absoluteURL(urlString), source: urlString)
    }

    func resource(url: URL?, source: String?) -> Resource {
        guard let url else { return invalidResource(source: source) }
        return resource(url: url, key: url.absoluteString)
    }

    private func resource(url: URL, key: String) -> Resource {
        if let existing = resourceCache.resource(forKey: key) {
            return existing
        }
        let created = Resource(service: self, url: url)
        resourceCache.insert(created, forKey: key)
        return created
    }

    /// A resource standing for a URL that could not be built; every request it makes fails at once.
    private func invalidResource(source: String?) -> Resource {
        let escaped = (source ?? "").addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let key = "repose-invalid-url:" + escaped
        if let existing = resourceCache.resource(forKey: key) {
            return existing
        }
        let placeholder = URL(string: key) ?? URL(fileURLWithPath: "/")
        let created = Resource(service: self, url: placeholder, invalidURLSource: source ?? "")
        resourceCache.insert(created, forKey: key)
        return created
    }

    // MARK: Memory

    /// How many resources the service keeps before releasing unused ones (those with no observers and no
    /// requests in flight). Resources the app still holds keep their identity. 100 by default.
    public var cachedResourceCountLimit: Int {
        get { resourceCache.countLimit }
        set { resourceCache.countLimit = newValue }
    }

    /// Releases every resource that has no observers and no requests in flight. On Apple platforms this also
    /// happens on a memory warning.
    public func flushUnusedResources() {
        resourceCache.flushUnused()
    }

    // MARK: Configuration bookkeeping

    func configurationChanged() {
        configurationVersion &+= 1
        sharedConfigurations.removeAll()
    }
}
