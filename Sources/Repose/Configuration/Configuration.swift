import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How a resource behaves: how long its data stays fresh, what every request carries, and how responses are
/// parsed. Set it with ``Service/configure(_:requestMethods:description:_:)`` and its siblings; read a
/// resource's with ``Resource/configuration`` or ``Resource/configuration(for:)``.
public struct Configuration {
    /// How long loaded data counts as fresh for `loadIfNeeded()`, in seconds. 30 by default.
    public var expirationTime: TimeInterval = 30
    /// How long after a failed load `loadIfNeeded()` waits before trying again, in seconds. 1 by default.
    public var retryTime: TimeInterval = 1
    /// How often an observed resource reloads, in seconds; `nil` (the default) never polls.
    ///
    /// While anything observes the resource, it loads again this long after each load completes, never while one
    /// is in flight. It stops once nothing observes it; when an observer comes back it loads at once if its data is
    /// older than the interval, else when the interval since the last load has passed. Every poll of a service
    /// waits on one timer of its scheduler, however many resources poll.
    ///
    /// ```swift
    /// service.configure("/notifications") { $0.refreshInterval = 60 }
    /// ```
    public var refreshInterval: TimeInterval?
    /// The shortest time between two progress reports for one request, in seconds.
    public var progressReportingInterval: TimeInterval = 0.05
    /// Headers sent with every request.
    public var headers: [String: String] = [:]
    /// The transformer pipeline that parses responses.
    public var pipeline = Pipeline()
    /// The largest response body a request accepts, in bytes: 32 MiB (33,554,432) by default.
    ///
    /// The body is counted as it arrives, after any `Content-Encoding` such as gzip is undone, so a small
    /// compressed body cannot inflate past it. A response that passes the limit, or announces a `Content-Length`
    /// that does, fails with ``RequestError/Cause/ResponseTooLarge`` ("The server's response was too large."):
    /// the transfer stops and what had arrived is dropped. Raise it for the URLs that serve large files:
    ///
    /// ```swift
    /// service.configure("/exports/**") { $0.maximumResponseSize = 512 * 1024 * 1024 }
    /// ```
    public var maximumResponseSize = 32 * 1024 * 1024  // three times the largest body the project budgets for

    /// Whether data stays fresh for the fixed ``expirationTime``, or for as long as the response's own headers say.
    /// ``FreshnessPolicy/fixed`` by default.
    ///
    /// ```swift
    /// api.configure("/catalog/**") { $0.freshness = .fromHTTPHeaders }
    /// ```
    public var freshness = FreshnessPolicy.fixed
    /// Whether and how failed requests are sent again; `nil` (off) by default. See ``RetryPolicy``.
    ///
    /// ```swift
    /// api.configure { $0.retryPolicy = RetryPolicy(maximumAttempts: 4, baseDelay: 0.5) }
    /// ```
    public var retryPolicy: RetryPolicy?
    /// Sends a credential with each request and renews it once when the server answers 401; `nil` (none) by
    /// default. See ``Authenticator``.
    ///
    /// ```swift
    /// api.configure("/api/**") { $0.authenticator = auth }
    /// ```
    public var authenticator: Authenticator?
    /// What a successful request that changes data (any method but GET, HEAD and OPTIONS) makes stale: nothing by
    /// default, so a write leaves other resources' state to the app. Chosen by the request's method. See
    /// ``InvalidationScope``.
    ///
    /// ```swift
    /// api.configure("/posts/*", requestMethods: [.post, .delete]) { $0.invalidation = .targetAndParent }
    /// ```
    public var invalidation = InvalidationScope()
    /// Whether a request that changes data and fails for want of a network goes to the service's ``Outbox``, to be
    /// sent again later; `false` by default. Chosen by the request's method; a request's own
    /// ``RequestOptions/usesOutbox`` overrides it.
    ///
    /// ```swift
    /// api.configure("/notes/**", requestMethods: [.post, .put, .patch, .delete]) { $0.usesOutbox = true }
    /// ```
    public var usesOutbox = false
    /// Where requests stand among those the service's ``RequestLimits`` hold back; `nil` (the default) leaves them
    /// to the rank of what they load: a load of an observed resource before a prefetch nobody observes yet (rule Q2).
    ///
    /// ```swift
    /// api.configure("/thumbnails/**") { $0.priority = .low }
    /// ```
    public var priority: RequestPriority?
    /// How a load's body becomes the content as it arrives, for a resource whose body streams (a chat reply, an
    /// NDJSON feed): see ``StreamedContent``. `nil`, the default, loads the whole body, then parses it.
    public var streamedContent: StreamedContent?
    /// Whether the server answers a write to a resource with the resource's new data (a PATCH that returns the whole
    /// object, say); `false` by default. Then a successful request that shows an optimistic change
    /// (``Resource/request(_:showing:on:headers:options:requestMutation:)``) shows that data in place of the change,
    /// in one step, and the resource is not reloaded.
    public var writeResponseIsResource = false

    private var mutators: [Resource.RequestMutation] = []
    private var decorators: [@MainActor (Resource, Request) -> Request] = []

    /// The mutators a request runs: the authenticator's first, which adds the credential, then the app's in the
    /// order they were added.
    var requestMutators: [Resource.RequestMutation] {
        guard let authenticator else { return mutators }
        return [authenticator.authorize] + mutators
    }

    /// The decorators a request goes through: the authenticator's first, then the app's. Without an
    /// authenticator, the app's list as it is: nothing is added to a request that does not need it. (Retries are
    /// no decorator: the network request itself sends again, see `NetworkRequest`.)
    var requestDecorators: [@MainActor (Resource, Request) -> Request] {
        guard let authenticator else { return decorators }
        return [authenticator.decorate] + decorators
    }

    /// Creates the default configuration.
    public init() {}

    /// Adds a change that is applied to every request just before it is sent, after the request's own
    /// `requestMutation`.
    ///
    /// Mutators run again for each request and each ``Request/repeated()``, reading whatever they need at that
    /// moment, so unlike values set in a configuration closure they need no `invalidateConfiguration()`. They see
    /// the body set by a body helper and may rewrite it, or change the HTTP method; they are chosen by the method
    /// the request was created with.
    ///
    /// ```swift
    /// service.configure {
    ///     $0.mutateRequests { $0.setValue(session.currentRequestID(), forHTTPHeaderField: "X-Request-ID") }
    /// }
    /// ```
    public mutating func mutateRequests(with mutator: @escaping Resource.RequestMutation) {
        mutators.append(mutator)
    }

    /// Adds a decorator, which receives every request (loads included) with its resource before it starts, and
    /// returns the request to use.
    ///
    /// A decorator may attach hooks and return the same request, cancel it (it then fails at once, without
    /// network traffic), or wrap it with ``Request/chained(whenCompleted:)``. Decorators run once per request, in
    /// the order they were added, chosen by the method the request has after the mutators; a
    /// ``Request/repeated()`` request is not decorated again.
    ///
    /// ```swift
    /// service.configure {
    ///     $0.decorateRequests { resource, request in
    ///         request.onFailure { print("\(resource.url): \($0.userMessage)") }
    ///     }
    /// }
    /// ```
    public mutating func decorateRequests(with decorator: @escaping @MainActor (Resource, Request) -> Request) {
        decorators.append(decorator)
    }
}
