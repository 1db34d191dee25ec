import Foundation

/// What a monitor hears about a request: it started, or it completed with its metrics. Each carries the URL of the
/// resource the request belongs to, which a monitor's pattern is tested against (as a configuration's is).
enum RequestMonitorEvent {
    case started(RequestMethod, URL, resource: URL)
    case completed(RequestMetrics, resource: URL)
}

/// A service's request monitors (rule X1): a signal that every monitor observes, owner-scoped like any subscription.
///
/// The signal is connected only while somebody observes it, so ``isListening`` is a flag test: a request that no
/// monitor hears measures nothing and allocates nothing for it.
@MainActor
final class RequestMonitors {
    /// Delivers to the monitors; set while at least one observes ``events``.
    private(set) var deliver: ((RequestMonitorEvent) -> Void)?
    /// What every monitor observes.
    private(set) lazy var events = Signal<RequestMonitorEvent> { [weak self] deliver in
        self?.deliver = deliver
        return { [weak self] in self?.deliver = nil }
    }

    /// Whether a monitor would hear a request starting now. Monitors whose owner is gone are ended first, so that
    /// they are released, and measure nothing, from the next request on.
    var isListening: Bool {
        guard deliver != nil else { return false }
        events.endObserversWithDeadOwners()
        return deliver != nil
    }

    /// Tells every monitor that is still listening.
    func tell(_ event: RequestMonitorEvent) {
        deliver?(event)
    }

    /// Tells the monitors that the caches answered a load of `resource` without the network (rule X1 amended):
    /// a request with no bytes moved, no attempt sent and the cache as its source. Returns its metrics, or `nil`
    /// when no monitor listens.
    func cacheAnswered(_ resource: URL, queued: TimeInterval, now: TimeInterval) -> RequestMetrics? {
        guard isListening else { return nil }
        tell(.started(.get, resource, resource: resource))
        let metrics = RequestMetrics(
            method: .get, url: resource, statusCode: nil, queued: queued, started: queued, firstByte: nil,
            finished: now, bytesSent: 0, bytesReceived: 0, source: .cache, attempts: 0)
        tell(.completed(metrics, resource: resource))
        return metrics
    }
}
