import Foundation

/// One monitor added with ``Configuration/monitorRequests(started:completed:)``: what it wants to hear.
struct RequestMonitor {
    let started: (@MainActor (RequestMethod, URL) -> Void)?
    let completed: @MainActor (RequestMetrics) -> Void
}

extension Configuration {
    /// Adds a monitor that hears every network request of the resources this configuration applies to: as it
    /// starts, and its ``RequestMetrics`` once it completed.
    ///
    /// Monitors are chosen by URL pattern and request method, like everything else in a configuration, and add up:
    /// each one added (in any matching `configure` block) hears every matching request. Where none is added,
    /// nothing is measured and nothing is kept. Both closures run on the main actor; keep them short (hand the
    /// values to your metrics system, do not block).
    ///
    /// ```swift
    /// service.configure("/api/**") {
    ///     $0.monitorRequests(started: { method, url in inFlight += 1 }) { metrics in
    ///         inFlight -= 1
    ///         histogram.record(metrics.duration, tags: ["source": metrics.source.description])
    ///     }
    /// }
    /// ```
    ///
    /// A request that is retried (``retryPolicy``) is heard once, with its ``RequestMetrics/attempts``; the
    /// repeat after an ``authenticator`` renewed its credential is a request of its own, whose attempts count on
    /// from the first.
    ///
    /// - Parameters:
    ///   - started: Called when the request first goes to the network, with its method and URL (as sent: hide
    ///     secrets in query strings before logging it).
    ///   - completed: Called once the request completed, however it completed.
    public mutating func monitorRequests(
        started: (@MainActor (RequestMethod, URL) -> Void)? = nil,
        completed: @escaping @MainActor (RequestMetrics) -> Void
    ) {
        monitors.append(RequestMonitor(started: started, completed: completed))
    }
}
