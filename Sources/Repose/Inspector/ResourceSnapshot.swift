import Foundation

/// What one resource knew at the moment of a ``ServiceSnapshot``: its URL, state, age, freshness, observers,
/// requests, latest error, ETag and content size.
///
/// A plain value, safe to keep, compare, send to another task or print. The URL and the error message are shown
/// as log lines show them, with secrets hidden (see ``ReposeLog/describe(url:)``): snapshots end up in bug
/// reports.
public struct ResourceSnapshot: Sendable, Hashable {
    /// The resource's URL, with the password of its user-info and sensitive query values hidden.
    public var url: String
    /// Whether a load is in flight.
    public var isLoading: Bool
    /// Whether the resource has data (from a load, a cache or a local override).
    public var hasData: Bool
    /// Whether the latest load failed.
    public var hasError: Bool
    /// Seconds since the latest change to the data or the error, on the service's clock; `nil` if neither exists.
    public var age: TimeInterval?
    /// Whether ``Resource/loadIfNeeded()`` would skip loading: see ``Resource/isUpToDate``.
    public var isUpToDate: Bool
    /// How many observers are alive: objects, closures, and each of the resource's signals that has subscribers.
    public var observerCount: Int
    /// How many requests concerning the resource are in flight, loads included.
    public var requestsInFlight: Int
    /// How many of ``requestsInFlight`` wait in the service's queue for a slot (``RequestLimits``).
    public var requestsQueued: Int
    /// The latest error's message, as shown to users, with any URL in it redacted.
    public var latestErrorMessage: String?
    /// The latest data's `ETag`.
    public var etag: String?
    /// The latest data's content type.
    public var contentType: String?
    /// The content's size in bytes when it is known: the length of `Data` or of a `String` in UTF-8, otherwise the
    /// response's `Content-Length`; `nil` for parsed content whose size nobody recorded.
    public var contentSize: Int?
    /// How long the latest monitored request took (``RequestMetrics/duration``); `nil` until a request completes
    /// under a monitor: with none attached, nothing is measured (see
    /// ``Service/monitorRequests(matching:owner:started:completed:)-(_,AnyObject,_,_)``).
    public var lastRequestDuration: TimeInterval?
    /// The body bytes the latest monitored request received (``RequestMetrics/bytesReceived``).
    public var lastRequestBytes: Int64?
    /// Where the latest monitored request's answer came from (``RequestMetrics/source``).
    public var lastRequestSource: RequestMetrics.Source?

    /// A short word for the state: `loading`, `error`, `data` or `empty`, joined when several hold
    /// (`loading+data`).
    public var status: String {
        var parts: [String] = []
        if isLoading { parts.append("loading") }
        if hasError { parts.append("error") }
        if hasData { parts.append("data") }
        return parts.isEmpty ? "empty" : parts.joined(separator: "+")
    }
}

extension ResourceSnapshot {
    /// Reads what `resource` already knows, changing nothing: no cache read starts, no observer is pruned.
    @MainActor
    init(_ resource: Resource, now: TimeInterval) {
        let data = resource.record.latestData  // not `latestData`: looking must not start a cache read
        let error = resource.latestError
        let timestamp = resource.timestamp
        self.init(
            url: ReposeLog.describe(url: resource.url),
            isLoading: resource.isLoading,
            hasData: data != nil,
            hasError: error != nil,
            age: data == nil && error == nil ? nil : max(0, now - timestamp),
            isUpToDate: resource.isUpToDate,
            observerCount: resource.liveObserverCount,
            requestsInFlight: resource.requests.tracked.count,
            requestsQueued: resource.core.requestQueue.waitingCount(of: resource),
            latestErrorMessage: error.map { ReposeLog.redactingURLs(in: $0.userMessage) },
            etag: data?.etag,
            contentType: data?.contentType,
            contentSize: data.flatMap(Self.size(of:)),
            lastRequestDuration: resource.latestMetrics?.duration,
            lastRequestBytes: resource.latestMetrics?.bytesReceived,
            lastRequestSource: resource.latestMetrics?.source)
    }

    private static func size(of entity: Entity<Any>) -> Int? {
        switch entity.content {
        case let data as Data: data.count
        case let text as String: text.utf8.count
        default: entity.header(forKey: "content-length").flatMap { Int($0) }.flatMap { $0 >= 0 ? $0 : nil }
        }
    }
}
