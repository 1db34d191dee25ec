import Dispatch
import Foundation

/// Where a resource is in reading its persistent caches.
enum CacheCheck {
    /// Nothing has needed the resource's data yet.
    case notStarted
    /// The caches are being read off the main actor, by this read; only its result is taken: a read that a wipe
    /// overtook finds another read here, or none.
    case checking(CacheRead)
    /// The caches were read (or there are none).
    case done

    var isChecking: Bool {
        if case .checking = self { return true }
        return false
    }
}

/// One reading of a resource's caches, with the actions waiting for it: its identity tells its result from a later
/// reading's (rule T9), and its waiters stay with it, so that a wipe that replaces the reading loses none of them.
@MainActor
final class CacheRead {
    /// Run, in order, once the reading is over, whether its result was taken or dropped.
    var waiters: [@MainActor () -> Void] = []
}

extension Resource {
    /// Starts reading the configured caches, once: on first data access, first observer, or `loadIfNeeded()`
    /// (rule H1). Reading happens off the main actor; a hit arrives as `newData(.cache)` unless newer data came
    /// first.
    func startCacheCheck() {
        guard case .notStarted = cacheCheck else { return }
        let pipeline = configuration.pipeline
        let targets = pipeline.cacheTargets(for: self)
        guard !targets.isEmpty else {
            cacheCheck = .done
            return
        }
        let read = CacheRead()
        cacheCheck = .checking(read)
        // Chosen here, on the task that needs the data, so that the result's line follows the same log scope.
        let log = LogSettings.handler(for: .cache)
        log?(.cache, "\(logName): reading the caches of " + targets.map(\.stage.name).joined(separator: ", "))
        DispatchQueue.global(qos: .userInitiated).async {
            let found = UncheckedTransfer(pipeline.readCache(targets))
            MainRoute.send { self.finishCacheCheck(read, found.value, log: log) }
        }
    }

    /// Takes the result of `read`, unless a wipe came after it began (rule T9): the wipe set the state back, and what
    /// the read found may be the very data the wipe removed, so it is dropped unseen; whoever waited for that read
    /// hears that it is over (and finds the wiped state).
    private func finishCacheCheck(_ read: CacheRead, _ cached: Entity<Any>?, log: ReposeLog.MessageHandler?) {
        let waiters = read.waiters
        read.waiters = []
        guard case .checking(let current) = cacheCheck, current === read else {
            log?(.cache, "\(logName): a cache read that a wipe overtook is dropped")
            for waiter in waiters { waiter() }
            return
        }
        log?(
            .cache, "\(logName): " + (cached.map { "hit, " + ReposeLog.summary(of: .success($0)) } ?? "no usable entry")
        )
        cacheCheck = .done
        if var cached = cached.map(stamped) {  // an entity made by hand, never stamped, is new as of now (W8)
            // A time ahead of the service clock (a clock set back, a foreign file) would keep the entry fresh for
            // ever; it can be no newer than now.
            cached.timestamp = min(cached.timestamp, core.now())
            apply(.cached(cached, lifetime: headerLifetime(of: cached)))  // only if no data or error came first
        }
        for waiter in waiters {
            waiter()
        }
        if timing.refreshInterval != nil, isObserved { pollWhenDue() }  // polling waited for the cache
    }

    /// Runs `action` once the caches have been read: at once if they already were or there are none.
    func whenCacheChecked(_ action: @escaping @MainActor () -> Void) {
        startCacheCheck()
        if case .checking(let read) = cacheCheck {
            read.waiters.append(action)
        } else {
            action()
        }
    }

    /// Tells every cache of this resource to forget its entry: the resource was wiped or overridden locally, and a
    /// relaunch must not bring back what it replaced (rule K7).
    func removeCachedEntries() {
        for target in configuration.pipeline.cacheTargets(for: self) {
            target.remove()
        }
    }

    /// Tells every cache of this resource that its data was confirmed current at `timestamp` by a 304 with
    /// `headers` (rules K8 and W4), so that a relaunch reads the lifetime the 304 gave.
    func refreshCachedEntries(confirmedAt timestamp: TimeInterval, headers: [String: String]) {
        for target in configuration.pipeline.cacheTargets(for: self) {
            target.refresh(confirmedAt: timestamp, headers: headers)
        }
    }

    /// Waits until the caches have been read. For tests and for code that must not race the cache.
    func cacheCheckCompleted() async {
        await withCheckedContinuation { continuation in
            whenCacheChecked { continuation.resume() }
        }
    }
}

/// The load `loadIfNeeded()` starts while the caches are still being read (rule H4): it waits for them, then
/// either confirms fresh cached data as "not modified" without touching the network, or loads from the network.
@MainActor
final class CacheThenNetworkDelegate: RequestDelegate {
    private let resource: Resource
    private var networkRequest: Request?
    private var isCancelled = false
    /// When the app asked, for the monitors of a load the caches answer.
    private let queued: TimeInterval

    init(resource: Resource) {
        self.resource = resource
        queued = resource.core.now()
    }

    func startUnderlyingOperation(passingResponseTo completionHandler: RequestCompletionHandler) {
        resource.whenCacheChecked { [self] in
            guard !isCancelled else { return }
            if resource.isUpToDate, let cached = resource.record.latestData {
                // A request answered without the network, which monitors hear as the cache's (rule X1).
                if let metrics = resource.core.monitors.cacheAnswered(
                    resource.url, queued: queued, now: resource.core.now())
                {
                    resource.latestMetrics = metrics
                }
                var reused = ResponseInfo(response: .success(cached), isNew: false)
                reused.confirmsData = false
                completionHandler.broadcastResponse(reused)
                return
            }
            let request = resource.makeLoadRequest()
            networkRequest = request
            resource.notifyObservers(.requested)
            request.onProgress { completionHandler.broadcastProgress($0) }
            request.onCompletion { completionHandler.broadcastResponse($0) }
        }
    }

    func cancelUnderlyingOperation() {
        isCancelled = true
        networkRequest?.cancel()
    }

    func repeated() -> any RequestDelegate {
        CacheThenNetworkDelegate(resource: resource)
    }

    var requestDescription: String {
        "cache check, then GET \(resource.logName)"
    }
}
