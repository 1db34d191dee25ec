import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Resource {
    /// Sends a request for this resource. Unlike ``load()``, its result does not change the resource's state
    /// unless you ask: attach hooks, pass it to ``load(using:)``, show an optimistic change, or configure what its
    /// success makes stale.
    ///
    /// ```swift
    /// resource.request(.delete).onSuccess { _ in resource.wipe() }
    /// resource.request(.post, headers: ["X-Dry-Run": "yes"])
    /// repo.request(.patch, json: ["starred": true], showing: .merge(["starred": true]))
    /// ```
    ///
    /// The request is built from the configuration for `method`: configured headers first, then the body (for the
    /// body helpers), then `headers`, then `requestMutation`, then the configured mutators, each able to override
    /// what came before. Decorators then receive it before it starts. Loads (``load(using:)``) take one-off headers
    /// the same way, as `headers:`.
    ///
    /// **An optimistic change** (`showing:`) is a layer over the server's data (rules M1–M5): observers hear one
    /// event when it shows, and when the request fails or is cancelled only this change goes, whatever other
    /// changes are pending. When it succeeds, the change stays until the server's new data replaces it, in one
    /// step, so the view never flickers back to the old data: the response itself where
    /// ``Configuration/writeResponseIsResource`` says so, otherwise a reload of the resource the change shows on.
    ///
    /// **The outbox** (``RequestOptions/usesOutbox`` or ``Configuration/usesOutbox``): a request that changes data
    /// and fails for want of a network waits in the service's ``Outbox``, change and all, and the returned request
    /// completes when the outbox has delivered it, or failed to, in this launch. The outbox keeps the method, the
    /// body and `headers` (except `Authorization`, `Cookie`, `Proxy-Authorization` and any header whose name says
    /// it holds a secret). It cannot keep code: a request it keeps is sent without its `requestMutation`.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - change: What to show on the resource while the request is on its way; `nil` for nothing.
    ///   - target: The resource the change shows on, when it is not this one: a `PUT /user/starred/42` that
    ///     changes what `/repos/42` shows.
    ///   - headers: Headers of this request only, set after the configured ones.
    ///   - options: Whether the outbox may keep the request, and what its success makes stale.
    ///   - requestMutation: A last change to this request before the configured mutators run. It runs again when
    ///     the request is repeated.
    /// - Returns: The request: hooks, `await request.response`, and `cancel()` (which rolls a change back).
    @discardableResult
    public func request(
        _ method: RequestMethod,
        showing change: OptimisticChange? = nil,
        on target: Resource? = nil,
        headers: [String: String] = [:],
        options: RequestOptions = RequestOptions(),
        requestMutation: @escaping RequestMutation = { _ in }
    ) -> Request {
        send(
            method, body: nil,
            RequestCall(
                change: change, target: target, headers: headers, options: options, requestMutation: requestMutation))
    }

    /// A call's one-off `headers`, set on the request before the call's own `requestMutation` runs.
    static func setting(
        _ headers: [String: String], then requestMutation: @escaping RequestMutation
    ) -> RequestMutation {
        guard !headers.isEmpty else { return requestMutation }
        return { urlRequest in
            for (name, value) in headers {
                urlRequest.setValue(value, forHTTPHeaderField: name)
            }
            requestMutation(&urlRequest)
        }
    }

    /// A request, not yet started, whose work is done by your own `delegate`. Call ``Request/start()`` to run it.
    ///
    /// The request stays in progress until the delegate broadcasts a response, which reaches the hooks exactly as
    /// broadcast (the transformer pipeline does not run). Configuration and decorators do not apply.
    public func prepareRequest(using delegate: any RequestDelegate) -> Request {
        Request(delegate: delegate, now: core.now)
    }

    /// A request that has already failed with `error`, without touching the network. Useful for validating input
    /// before sending: the failure looks like any other.
    public static func failedRequest(returning error: RequestError) -> Request {
        hardWiredRequest(returning: .failure(error))
    }

    /// A request that has already completed with `response`, without touching the network or the pipeline.
    public static func hardWiredRequest(returning response: Response) -> Request {
        // Completed as it starts, so it never needs the time: a cancel after that does nothing.
        let request = Request(delegate: HardWiredRequestDelegate(response: response), now: { 0 })
        return request.start()
    }

    /// Builds, decorates and starts a network request, and tracks it unless the caller will (see `load(using:)`).
    func makeRequest(
        _ method: RequestMethod,
        body: RequestMutation?,
        tracking: Bool = true,
        invalidation: InvalidationScope? = nil,
        priority: RequestPriority? = nil,
        requestMutation: @escaping RequestMutation
    ) -> Request {
        if let invalidURLSource {
            return Resource.failedRequest(
                returning: RequestError(
                    userMessage: invalidURLReason.userMessage(source: invalidURLSource),
                    cause: RequestError.Cause.InvalidURL(urlSource: invalidURLSource),
                    timestamp: core.now()))
        }
        let delegate = NetworkRequest(resource: self, method: method) { [unowned self] in
            buildURLRequest(method, body: body, requestMutation: requestMutation)
        }
        delegate.priority = priority
        let decoratedMethod = delegate.effectiveMethod
        var request = Request(delegate: delegate, now: core.now)
        for decorator in built(for: decoratedMethod).requestDecorators {
            request = decorator(self, request)
        }
        if decoratedMethod.changesData {  // what it changed is stale now (rule M6)
            request.onSuccess { [weak self] _ in self?.invalidateAfterWrite(decoratedMethod, scope: invalidation) }
        }
        if tracking { trackRequest(request) }
        return request.start()
    }

    /// The request as it goes out: configured headers, then the body helper's body and content type, then the ad
    /// hoc mutation, then the configured mutators (chosen by the original method).
    func buildURLRequest(
        _ method: RequestMethod,
        body: RequestMutation?,
        requestMutation: RequestMutation
    ) -> URLRequest {
        var urlRequest = URLRequest(url: url)
        // A new request is already a GET; setting the method costs a copy and a normalisation on Linux.
        if method != .get {
            urlRequest.httpMethod = method.rawValue
        }
        let built = built(for: method)
        for (name, value) in built.configuration.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        body?(&urlRequest)
        requestMutation(&urlRequest)
        for mutator in built.requestMutators {
            mutator(&urlRequest)
        }
        return urlRequest
    }
}

extension RequestMethod {
    /// Whether a request with this method may change what the server holds: every method but GET, HEAD and
    /// OPTIONS.
    var changesData: Bool {
        switch self {
        case .get, .head, .options: false
        default: true
        }
    }
}

extension Resource {
    /// This resource's configuration for GET requests (and loads).
    public var configuration: Configuration {
        configuration(for: .get)
    }

    /// This resource's configuration for requests with `method`.
    public func configuration(for method: RequestMethod) -> Configuration {
        built(for: method).configuration
    }

    /// The built configuration for `method`, shared with the resources that matched the same entries.
    func built(for method: RequestMethod) -> BuiltConfiguration {
        configurations.forgetIfOutdated(version: core.configurationVersion)
        if let built = configurations[method] { return built }
        let built = core.buildConfiguration(for: url, method: method)
        configurations[method] = built
        return built
    }

    /// GET's timing values (freshness limits, polling), read without copying the configuration (a struct of arrays
    /// and closures: several retains), since `loadIfNeeded()` asks on every call.
    var timing: BuiltConfiguration.Timing {
        if configurations.version == core.configurationVersion, let get = configurations.get {
            return get.timing
        }
        return built(for: .get).timing
    }
}

/// A resource's configurations, by method, as built for one version of the service's configuration.
///
/// References to configurations the service shares, GET's in a field of its own: a dictionary by method cost each
/// resource a large allocation (its slots hold whole `Configuration` values), most of the memory a resource with
/// data and an observer took beyond its URL.
struct ResourceConfigurations {
    private(set) var version = -1
    /// GET's configuration: the one every resource reads.
    private(set) var get: BuiltConfiguration?
    /// Other methods' configurations, for the few resources that send them.
    private var others: [RequestMethod: BuiltConfiguration] = [:]

    subscript(method: RequestMethod) -> BuiltConfiguration? {
        get { method == .get ? get : others[method] }
        set {
            if method == .get {
                get = newValue
            } else {
                others[method] = newValue
            }
        }
    }

    /// Forgets everything built for an older version of the service's configuration.
    mutating func forgetIfOutdated(version current: Int) {
        guard version != current else { return }
        version = current
        get = nil
        others.removeAll(keepingCapacity: true)
    }
}

/// A configuration built for one method and one set of matching entries, shared by the resources that matched them
/// (see `ServiceCore.buildConfiguration(for:method:)`), with the plain numbers the hot paths read.
final class BuiltConfiguration {
    let configuration: Configuration
    let timing: Timing
    /// The configuration's mutators and decorators, the authenticator's first: every request reads them, so they are
    /// put together once, here.
    let requestMutators: [Resource.RequestMutation]
    let requestDecorators: [@MainActor (Resource, Request) -> Request]

    init(_ configuration: Configuration) {
        self.configuration = configuration
        timing = Timing(configuration)
        requestMutators = configuration.requestMutators
        requestDecorators = configuration.requestDecorators
    }

    /// The plain numbers of a configuration that the hot paths read.
    struct Timing: Sendable {
        var expirationTime: TimeInterval
        var retryTime: TimeInterval
        var refreshInterval: TimeInterval?
        var readsHTTPFreshness: Bool

        init(_ configuration: Configuration) {
            expirationTime = configuration.expirationTime
            retryTime = configuration.retryTime
            refreshInterval = configuration.refreshInterval
            readsHTTPFreshness = configuration.freshness.readsHeaders
        }
    }
}
