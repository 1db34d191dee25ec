import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Resource {
    /// Sends a request for this resource. Unlike ``load()``, its result does not change the resource's state:
    /// attach hooks, or pass it to ``load(using:)``.
    ///
    /// ```swift
    /// resource.request(.delete).onSuccess { _ in resource.wipe() }
    /// resource.request(.post) { $0.setValue("yes", forHTTPHeaderField: "X-Dry-Run") }
    /// ```
    ///
    /// The request is built from the configuration for `method`: configured headers first, then the body (for the
    /// body helpers), then `requestMutation`, then the configured mutators, each able to override what came
    /// before. Decorators then receive it before it starts.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - requestMutation: A last change to this request before the configured mutators run. It runs again when
    ///     the request is repeated.
    @discardableResult
    public func request(
        _ method: RequestMethod,
        requestMutation: @escaping RequestMutation = { _ in }
    ) -> Request {
        makeRequest(method, body: nil, requestMutation: requestMutation)
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
        requestMutation: @escaping RequestMutation
    ) -> Request {
        if let invalidURLSource {
            return Resource.failedRequest(
                returning: RequestError(
                    userMessage: invalidURLReason.userMessage(source: invalidURLSource),
                    cause: RequestError.Cause.InvalidURL(urlSource: invalidURLSource),
                    timestamp: core.now()))
        }
        let delegate = NetworkRequestDelegate(resource: self, method: method) { [unowned self] in
            buildURLRequest(method, body: body, requestMutation: requestMutation)
        }
        let decoratedMethod = delegate.effectiveMethod
        var request = Request(delegate: delegate, now: core.now)
        for decorator in configuration(for: decoratedMethod).requestDecorators {
            request = decorator(self, request)
        }
        if decoratedMethod.changesData {  // what it changed is stale now (rule M6)
            request.onSuccess { [weak self] _ in self?.invalidateAfterMutation(decoratedMethod) }
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
        let configuration = configuration(for: method)
        for (name, value) in configuration.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        body?(&urlRequest)
        requestMutation(&urlRequest)
        for mutator in configuration.requestMutators {
            mutator(&urlRequest)
        }
        return urlRequest
    }
}
