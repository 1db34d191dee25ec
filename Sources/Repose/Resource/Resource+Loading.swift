import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Resource {
    /// Whether the local state is fresh enough that ``loadIfNeeded()`` need not load.
    ///
    /// Fresh means: not invalidated, and the latest data (or, after a failure, the latest error) is younger than
    /// `expirationTime` (or `retryTime` after a failure).
    public var isUpToDate: Bool {
        // Everything that calls out first: with the arguments ready, the record is read in place, not copied.
        let timing = timing
        let now = core.now()
        return record.isUpToDate(now: now, expirationTime: timing.expirationTime, retryTime: timing.retryTime)
    }

    /// Makes sure a load is in flight unless the data is fresh. Call it as often as you like.
    ///
    /// - Returns: The load already in flight if there is one (the same request, not a new one); a new load if the
    ///   data is stale; `nil` if the data is fresh.
    @discardableResult
    public func loadIfNeeded() -> Request? {
        ReposeLog.log(.staleness, loadDecisionLogLine)
        if let inFlight = loadRequests.first { return inFlight }
        if case .notStarted = cacheCheck { startCacheCheck() }
        if case .checking = cacheCheck {  // wait for the cache before deciding (rule H4)
            // Loading from now on, but `requested` waits until the network is asked, if it is at all.
            let request = Request(delegate: CacheThenNetworkDelegate(resource: self), now: core.now)
            load(using: request, announcing: false)
            return request.start()
        }
        return isUpToDate ? nil : load()
    }

    /// Starts a GET that updates this resource, even if one is already in flight or the data is fresh.
    ///
    /// Observers receive ``ResourceEvent/requested`` at once, then ``ResourceEvent/newData(_:)``,
    /// ``ResourceEvent/notModified``, ``ResourceEvent/error`` or ``ResourceEvent/requestCancelled``. The load
    /// sends the current data's ETag as `If-None-Match`.
    @discardableResult
    public func load() -> Request {
        load(using: makeLoadRequest())
    }

    /// The GET a load sends, with the server data's validator: its ETag as `If-None-Match`, or without one its
    /// `Last-Modified` date as `If-Modified-Since` (rule R3). Data the app put in place itself has none: a 304
    /// would confirm it as the server's, and a local edit would outlive the load meant to replace it.
    func makeLoadRequest() -> Request {
        if let streamedContent = configuration(for: .get).streamedContent {
            return Request(delegate: StreamedLoad(resource: self, content: streamedContent), now: core.now).start()
        }
        // Untracked here: `load(using:)` tracks it, with the hook that finishes the load (one closure, not two).
        return makeRequest(.get, body: nil, tracking: false) { [weak self] urlRequest in
            guard let self, !record.isLocalData, let data = record.serverData else { return }
            if let etag = data.etag {
                urlRequest.setValue(etag, forHTTPHeaderField: "If-None-Match")
            } else if let lastModified = data.header(lowercasedKey: "last-modified"),
                HTTPDate.seconds(from: lastModified, now: data.timestamp) != nil
            {
                urlRequest.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since")
            }
        }
    }

    /// Loads the resource with a body that becomes its content as it arrives, through `content` (rule U3), whatever
    /// ``Configuration/streamedContent`` says: see ``StreamedContent``.
    ///
    /// ```swift
    /// reply.load(streaming: .text(reload: .append))
    /// ```
    @discardableResult
    public func load(streaming content: StreamedContent) -> Request {
        load(using: Request(delegate: StreamedLoad(resource: self, content: content), now: core.now).start())
    }

    /// Makes `request`'s result update this resource as a load would: its entity becomes ``latestData`` or its
    /// error ``latestError``, and observers hear about it.
    ///
    /// Use it for a POST that answers with the full resource, or a request built with custom options:
    ///
    /// ```swift
    /// auth.load(using: auth.request(.post, json: ["user": name, "password": password]))
    /// ```
    @discardableResult
    public func load(using request: Request) -> Request {
        load(using: request, announcing: true)
    }

    /// Tracks `request` as a load; `announcing` sends ``ResourceEvent/requested`` now, otherwise the request's
    /// delegate sends it when it goes to the network.
    @discardableResult
    func load(using request: Request, announcing: Bool) -> Request {
        requests.loads.append(request)
        let tracks = beginTracking(request)
        if announcing { apply(.loadStarted) }
        request.onProgress { [weak self] progress in
            self?.notifyObserversOfProgress(progress)
        }
        let start = LoadStart(settledBy: record.settleCount, overrideCount: record.overrideCount)
        request.onCompletion { [weak self] info in
            guard let self else { return }
            if tracks { endTracking(request) }
            finishLoad(request, with: info, start: start)
        }
        return request
    }

    /// What the record was when a load started: which changes its data will hold (rule M4), and which local
    /// override its validator was for.
    private struct LoadStart {
        let settledBy: Int
        let overrideCount: Int
    }

    private func finishLoad(_ request: Request, with info: ResponseInfo, start: LoadStart) {
        requests.loads.removeAll { $0 === request }
        apply(change(for: info, start: start))
        ReposeLog.log(.stateChanges, stateLogLine)
        if timing.refreshInterval != nil, isObserved { pollWhenDue() }
    }

    /// What a load's outcome means for the resource's data: every time is the service clock's now.
    private func change(for info: ResponseInfo, start: LoadStart) -> ResourceRecord.Change {
        switch info.response {
        case .success(var entity) where info.isNew:
            entity.timestamp = core.now()
            return .loaded(entity, lifetime: headerLifetime(of: entity), settledBy: start.settledBy)
        case .success where info.confirmsData && record.overrideCount != start.overrideCount:
            // Sent with the validator of data a local override has replaced since: the server confirmed data this
            // resource no longer holds.
            return .failed(staleConfirmation(), retryAfter: nil)
        case .success(var confirmed) where info.confirmsData:
            // A 304's headers replaced the stored ones (RFC 9111 §4.3.4): the lifetime is read again from them.
            let now = core.now()
            refreshCachedEntries(confirmedAt: now, headers: confirmed.headers)
            confirmed.timestamp = now
            return .confirmed(
                at: now, headers: confirmed.headers, lifetime: headerLifetime(of: confirmed), settledBy: start.settledBy
            )
        case .success:
            return .reused
        case .failure(let error) where error.isCancellation:
            return .cancelled
        case .failure(var error):
            error.timestamp = core.now()
            let asksToWait = error.entity?.header(forKey: "Retry-After") != nil
            return .failed(error, retryAfter: asksToWait ? HTTPFreshness(error: error).retryAfter : nil)
        }
    }

    /// The failure of a 304 that confirmed data a local override replaced while the load was on its way.
    private func staleConfirmation() -> RequestError {
        RequestError(
            userMessage: "The server said nothing changed, but the data was changed locally meanwhile.",
            cause: RequestError.Cause.NoLocalDataFor304(), httpStatusCode: 304, timestamp: core.now())
    }

    /// How long `entity` stays fresh by its own headers (rule R1), when the configuration reads them: `nil` to
    /// follow `expirationTime`, which is also what a response that says nothing about its lifetime gets.
    func headerLifetime(of entity: Entity<Any>) -> TimeInterval? {
        let timing = timing
        guard timing.readsHTTPFreshness else { return nil }
        let freshness = HTTPFreshness(entity: entity)
        guard freshness.lifetime != nil || freshness.age > 0 else { return nil }
        return freshness.expirationTime(configured: timing.expirationTime)
    }

    /// Cancels the loads in flight if nothing observes this resource any more.
    public func cancelLoadIfUnobserved() {
        guard !isObserved else { return }
        for request in loadRequests {
            request.cancel()
        }
    }

    /// Waits `delay` seconds, then cancels the loads in flight if nothing observes this resource by then.
    ///
    /// Useful when views come and go quickly (a scrolling list): a view that goes away calls it, and if another
    /// view starts observing within the delay the load goes on. `callback` runs after the delay either way.
    public func cancelLoadIfUnobserved(
        afterDelay delay: TimeInterval, then callback: @escaping @MainActor () -> Void = {}
    ) {
        // The timer does not keep the resource alive: one that is gone has no load left to cancel.
        core.timers.after(seconds: delay) { [weak self] in
            self?.cancelLoadIfUnobserved()
            callback()
        }
    }

    /// Keeps `request` in ``allRequests`` until it completes.
    func trackRequest(_ request: Request) {
        guard beginTracking(request) else { return }
        request.onCompletion { [weak self] _ in self?.endTracking(request) }
    }

    /// Adds `request` to ``allRequests`` unless it is there already or done; returns whether it did, in which case
    /// the caller calls ``endTracking(_:)`` when it completes.
    private func beginTracking(_ request: Request) -> Bool {
        guard requests.track(request) else { return false }
        markInUse()
        return true
    }

    private func endTracking(_ request: Request) {
        guard requests.untrack(request) else { return }
        if requests.tracked.isEmpty { noteMaybeUnused() }
    }
}

extension Resource {
    /// Why `loadIfNeeded()` is about to load or not, for `staleness`. Mirrors `isUpToDate`.
    private var loadDecisionLogLine: String {
        if !loadRequests.isEmpty { return "\(logName): a load is already in flight; not loading again" }
        if record.isInvalidated { return "\(logName): invalidated; loading" }
        guard record.latestData != nil || record.latestError != nil else { return "\(logName): no data yet; loading" }
        let (what, limitName, limit) =
            record.latestError == nil
            ? ("data", "expirationTime", timing.expirationTime) : ("error", "retryTime", timing.retryTime)
        let verdict = isUpToDate ? "up to date; not loading" : "stale; loading"
        let age = String(format: "%.1fs", core.now() - timestamp)
        return "\(logName): \(what) is \(age) old, \(limitName) is \(String(format: "%.1fs", limit)); \(verdict)"
    }

    /// The resource's state after a load, for `stateChanges`.
    private var stateLogLine: String {
        let data = record.latestData.map { "data " + ReposeLog.summary(of: .success($0)) } ?? "no data"
        let error = record.latestError.map { "error " + ReposeLog.summary(of: $0) } ?? "no error"
        return "\(logName): \(data), \(error), \(isLoading ? "loading" : "not loading")"
    }
}

/// The requests in flight that concern one resource: its loads, and every request it tracks until it completes.
@MainActor
struct ResourceRequests {
    /// The loads in flight, oldest first.
    var loads: [Request] = []
    /// Every tracked request by identity, loads included, each with the order it began in: tracking and ending one
    /// costs the same whatever the number in flight, so an outbox draining thousands of one resource's writes,
    /// which end in another order than they began, stays linear.
    private(set) var tracked: [ObjectIdentifier: (order: Int, request: Request)] = [:]

    /// Orders ``all``: one count for every resource, so no resource stores one of its own.
    private static var nextOrder = 0

    /// Every tracked request, oldest first.
    var all: [Request] { tracked.values.sorted { $0.order < $1.order }.map(\.request) }

    /// Adds `request` unless it is tracked already or done; returns whether it did.
    mutating func track(_ request: Request) -> Bool {
        let id = ObjectIdentifier(request)
        guard request.state != .completed, tracked[id] == nil else { return false }
        Self.nextOrder += 1
        tracked[id] = (Self.nextOrder, request)
        return true
    }

    /// Forgets `request`; returns whether it was tracked.
    mutating func untrack(_ request: Request) -> Bool {
        tracked.removeValue(forKey: ObjectIdentifier(request)) != nil
    }
}
