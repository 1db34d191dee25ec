import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How a resource behaves: how long its data stays fresh, what every request carries, and how responses are
/// parsed. Set it with `Service.configure(...)`; read a resource's with ``Resource/configuration``.
public struct Configuration {
    /// How long loaded data counts as fresh for `loadIfNeeded()`, in seconds. 30 by default.
    public var expirationTime: TimeInterval = 30
    /// How long after a failed load `loadIfNeeded()` waits before trying again, in seconds. 1 by default.
    public var retryTime: TimeInterval = 1
    /// The shortest time between two progress reports for one request, in seconds.
    public var progressReportingInterval: TimeInterval = 0.05
    /// Headers sent with every request.
    public var headers: [String: String] = [:]
    /// The transformer pipeline that parses responses.
    public var pipeline = Pipeline()

    var requestMutators: [Resource.RequestMutation] = []
    var requestDecorators: [@MainActor (Resource, Request) -> Request] = []

    /// Creates the default configuration.
    public init() {}

    /// Adds a change that is applied to every request just before it is sent, after the per-request mutation.
    ///
    /// Mutators run again for each request and each ``Request/repeated()``, so they always see the current body
    /// and headers.
    public mutating func mutateRequests(with mutator: @escaping Resource.RequestMutation) {
        requestMutators.append(mutator)
    }

    /// Adds a decorator, which receives every request before it starts and may watch it, replace it, or cancel it.
    public mutating func decorateRequests(with decorator: @escaping @MainActor (Resource, Request) -> Request) {
        requestDecorators.append(decorator)
    }
}
