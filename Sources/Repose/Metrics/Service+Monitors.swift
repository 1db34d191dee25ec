import Foundation

extension Service {
    /// Adds a monitor that hears the requests of this service's resources, for as long as `owner` is alive: each
    /// as it starts, and its ``RequestMetrics`` once it completed.
    ///
    /// A monitor is a subscription (rule X1): `owner` is held weakly, and once it is gone the monitor hears nothing
    /// more and is released, at the service's next request at the latest; `cancel()` on the returned
    /// subscription ends it sooner. Releasing the subscription does not end it. With no monitor attached, nothing
    /// is measured and nothing is kept.
    ///
    /// ```swift
    /// service.monitorRequests(matching: "/search/**", owner: self) { metrics in
    ///     print("\(metrics.url.path): \(metrics.duration) s")
    /// }
    /// ```
    ///
    /// The closures are held for as long as the owner lives: one that captures the owner strongly keeps it alive
    /// for ever. When they need the owner, use the form that passes it in,
    /// ``monitorRequests(matching:owner:started:completed:)-(_,Owner,_,_)``.
    ///
    /// A request that is retried (``Configuration/retryPolicy``) is heard once, with its
    /// ``RequestMetrics/attempts``; the repeat after an ``Configuration/authenticator`` renewed its credential is a
    /// request of its own, whose attempts count on from the first. A load that the caches answer without the
    /// network is heard too, with ``RequestMetrics/Source/cache`` as its source. Both closures run on the main
    /// actor: keep them short (hand the values to your metrics system, do not block).
    ///
    /// - Parameters:
    ///   - pattern: Which resources' requests to hear, as in ``configure(_:requestMethods:description:_:)``;
    ///     every resource's by default.
    ///   - owner: The object whose lifetime bounds the monitor.
    ///   - started: Called when the request starts (goes to the network, or finds its answer in the caches), with
    ///     its method and URL (as sent: hide secrets in query strings before logging it).
    ///   - completed: Called once the request completed, however it completed.
    /// - Returns: A `Subscription` that can end the monitor early.
    @discardableResult
    public func monitorRequests(
        matching pattern: (any ConfigurationPatternConvertible)? = nil, owner: AnyObject,
        started: (@MainActor (RequestMethod, URL) -> Void)? = nil,
        completed: @escaping @MainActor (RequestMetrics) -> Void
    ) -> Subscription {
        let matches = pattern?.configurationPattern(for: self)
        return core.monitors.events.observe(owner: owner) { event in
            switch event {
            case .started(let method, let url, let resource):
                if matches?(resource) ?? true { started?(method, url) }
            case .completed(let metrics, let resource):
                if matches?(resource) ?? true { completed(metrics) }
            }
        }
    }

    /// Adds a monitor that hears the requests of this service's resources for as long as `owner` is alive, handing
    /// the owner to its closures.
    ///
    /// This is the form to use when the monitor works on its owner, a statistics object say: the closures receive
    /// the owner, so they need not capture it, and the owner is free to go. Otherwise it is
    /// ``monitorRequests(matching:owner:started:completed:)-(_,AnyObject,_,_)``.
    ///
    /// ```swift
    /// service.monitorRequests(owner: self) { stats, metrics in stats.record(metrics) }
    /// ```
    ///
    /// - Parameters:
    ///   - pattern: Which resources' requests to hear, as in ``configure(_:requestMethods:description:_:)``;
    ///     every resource's by default.
    ///   - owner: The object whose lifetime bounds the monitor, passed to the closures.
    ///   - started: Called with the owner when the request starts, with its method and URL.
    ///   - completed: Called with the owner once the request completed, however it completed.
    /// - Returns: A `Subscription` that can end the monitor early.
    @discardableResult
    public func monitorRequests<Owner: AnyObject>(
        matching pattern: (any ConfigurationPatternConvertible)? = nil, owner: Owner,
        started: (@MainActor (_ owner: Owner, RequestMethod, URL) -> Void)? = nil,
        completed: @escaping @MainActor (_ owner: Owner, RequestMetrics) -> Void
    ) -> Subscription {
        let matches = pattern?.configurationPattern(for: self)
        return core.monitors.events.observe(owner: owner) { owner, event in
            switch event {
            case .started(let method, let url, let resource):
                if matches?(resource) ?? true { started?(owner, method, url) }
            case .completed(let metrics, let resource):
                if matches?(resource) ?? true { completed(owner, metrics) }
            }
        }
    }
}
