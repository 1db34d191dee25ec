import Foundation

/// Keeps one request's measurements while it runs, for its monitors. Made only when a monitor is attached: a
/// request nobody monitors measures nothing and allocates nothing for it.
///
/// Safe (`@unchecked Sendable`): the provider's callbacks (any thread) write the transfer's figures under `lock`;
/// the rest is written and read on the main actor only, by the request's delegate.
final class MetricsRecorder: @unchecked Sendable {
    private let monitors: RequestMonitors
    /// The URL of the resource the request belongs to, which monitors' patterns are tested against.
    private let resource: URL
    private let now: @Sendable () -> TimeInterval
    private let lock = NSLock()
    /// Written under `lock` by the provider's callbacks; made anew for each attempt.
    private var transfer = Transfer()
    // Main actor only.
    private let queued: TimeInterval
    private var started: TimeInterval
    private var method: RequestMethod
    private var url: URL
    private var hasStarted = false
    private var timeQueued: TimeInterval = 0

    init(
        monitors: RequestMonitors, resource: URL, now: @escaping @Sendable () -> TimeInterval, method: RequestMethod,
        url: URL
    ) {
        self.monitors = monitors
        self.resource = resource
        self.now = now
        self.method = method
        self.url = url
        queued = now()
        started = queued
    }

    /// An attempt goes to the provider: the previous attempt's figures are dropped. Tells the monitors on the
    /// request's first attempt (a monitor may cancel the request there).
    @MainActor
    func attemptStarted(method: RequestMethod, url: URL, bodySize: Int) {
        self.method = method
        self.url = url
        started = now()
        lock.withLock { transfer = Transfer(bytesSent: Int64(bodySize)) }
        guard !hasStarted else { return }
        hasStarted = true
        monitors.tell(.started(method, url, resource: resource))
    }

    /// The attempt waited in the service's queue since `enteredAt`, and goes to the provider now.
    @MainActor
    func leftQueue(enteredAt: TimeInterval) {
        started = now()
        timeQueued += max(0, started - enteredAt)
    }

    /// The response's status and headers, on the provider's thread.
    func record(head response: NetworkResponse) {
        lock.withLock {
            transfer.statusCode = response.statusCode
            transfer.redirects = response.redirectCount
            transfer.connection = response.connection ?? transfer.connection
            transfer.isFromCache = response.isFromCache || transfer.isFromCache
        }
    }

    /// A piece of the body arrived, on the provider's thread.
    func recordBody(_ count: Int) {
        let time = now()
        lock.withLock {
            if transfer.firstByte == nil { transfer.firstByte = time }
            transfer.bodyBytes += Int64(count)
            transfer.bytesReceived = max(transfer.bytesReceived, transfer.bodyBytes)
        }
    }

    /// A progress sample from the provider (the upload's bytes, a buffering provider's count), on its thread.
    func record(_ sample: TransferProgress) {
        let time = sample.bytesReceived > 0 ? now() : nil
        lock.withLock {
            if transfer.firstByte == nil, let time { transfer.firstByte = time }
            transfer.bytesSent = max(transfer.bytesSent, sample.bytesSent)
            transfer.bytesReceived = max(transfer.bytesReceived, sample.bytesReceived)
        }
    }

    /// What the provider knew only at the end: how the connection was made, whether a cache answered.
    func recordEnd(connection: ConnectionMetrics?, isFromCache: Bool) {
        lock.withLock {
            transfer.connection = connection ?? transfer.connection
            transfer.isFromCache = isFromCache || transfer.isFromCache
        }
    }

    /// The request completed after `attempts` attempts: the monitors hear its metrics.
    @MainActor
    @discardableResult
    func finish(attempts: Int, cancelled: Bool = false) -> RequestMetrics {
        let finished = now()
        let transfer = lock.withLock { self.transfer }
        let source: RequestMetrics.Source =
            switch transfer.statusCode {
            case _ where cancelled, nil: .none
            case 304: .notModified
            case _ where transfer.isFromCache: .cache
            default: .network
            }
        let metrics = RequestMetrics(
            method: method, url: url, statusCode: cancelled ? nil : transfer.statusCode, queued: queued,
            started: started, firstByte: transfer.firstByte, finished: finished, bytesSent: transfer.bytesSent,
            bytesReceived: transfer.bytesReceived, source: source, attempts: attempts,
            redirects: cancelled ? 0 : transfer.redirects, connection: cancelled ? nil : transfer.connection,
            timeQueued: timeQueued)
        monitors.tell(.completed(metrics, resource: resource))
        return metrics
    }
}

/// One attempt's figures, as the provider reports them.
private struct Transfer {
    var firstByte: TimeInterval?
    var bytesSent: Int64 = 0
    /// The body's pieces counted, and what the provider said it received, whichever is more.
    var bytesReceived: Int64 = 0
    var bodyBytes: Int64 = 0
    var statusCode: Int?
    var redirects = 0
    var connection: ConnectionMetrics?
    var isFromCache = false
}
