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
    /// request's first attempt.
    @MainActor
    func attemptStarted(isFirst: Bool, method: RequestMethod, url: URL, bodySize: Int) {
        self.method = method
        self.url = url
        started = now()
        lock.withLock { transfer = Transfer(bytesSent: Int64(bodySize)) }
        guard isFirst else { return }
        monitors.tell(.started(method, url, resource: resource))
    }

    /// A progress sample from the provider, on any thread.
    func record(_ sample: TransferProgress) {
        let time = sample.bytesReceived > 0 ? now() : nil
        lock.withLock {
            if transfer.firstByte == nil, let time { transfer.firstByte = time }
            transfer.bytesSent = max(transfer.bytesSent, sample.bytesSent)
            transfer.bytesReceived = max(transfer.bytesReceived, sample.bytesReceived)
        }
    }

    /// A piece of a streamed body arrived (a download), on the provider's queue.
    func recordBody(_ count: Int) {
        let time = now()
        lock.withLock {
            if transfer.firstByte == nil { transfer.firstByte = time }
            transfer.bytesReceived += Int64(count)
        }
    }

    /// The provider's answer, on any thread, before it is parsed (or, for a download, its status and headers).
    func record(_ result: Result<NetworkResponse, any Error>) {
        guard case .success(let response) = result else { return }
        let time = response.body.isEmpty ? nil : now()
        lock.withLock {
            if transfer.firstByte == nil, let time { transfer.firstByte = time }
            transfer.bytesReceived = max(transfer.bytesReceived, Int64(response.body.count))
            transfer.statusCode = response.statusCode
            transfer.redirects = response.redirectCount
            transfer.connection = response.connection
            transfer.isFromCache = response.isFromCache
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
            redirects: cancelled ? 0 : transfer.redirects, connection: cancelled ? nil : transfer.connection)
        monitors.tell(.completed(metrics, resource: resource))
        return metrics
    }
}

/// One attempt's figures, as the provider reports them.
private struct Transfer {
    var firstByte: TimeInterval?
    var bytesSent: Int64 = 0
    var bytesReceived: Int64 = 0
    var statusCode: Int?
    var redirects = 0
    var connection: ConnectionMetrics?
    var isFromCache = false
}
