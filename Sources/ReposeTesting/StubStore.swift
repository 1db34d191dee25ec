import Foundation
import Repose

/// Everything a ``StubNetworkingProvider`` and its routes share: the stubs, the request log, and the
/// deliveries under way.
///
/// `@unchecked Sendable`: every mutable property here, and every mutable property of the ``Exchange`` and
/// ``RouteState`` objects it holds, is read and written only while `lock` is held. Code outside the provider
/// (the sinks, resumed waits, test-failure recording) runs only after the lock is released, so it may call back into
/// the provider freely.
final class StubStore: @unchecked Sendable {
    let lock = NSLock()
    /// Where responses are delivered: a serial queue of the provider's own, off the main queue as a real network's
    /// callbacks are, so each request hears its parts in order and requests complete in the order they were released.
    let queue = DispatchQueue(label: "ReposeTesting.StubNetworkingProvider")
    /// Where the provider was created, which is where unmatched-request failures point.
    let creationSite: CallSite

    private var routes: [RouteState] = []
    /// Every request seen, as the test reads it, oldest first. Kept as recorded values rather than mapped from the
    /// exchanges on each read, so that a test polling `requests` in a loop costs a copy-on-write handle, not a
    /// pass over everything sent.
    private(set) var log: [RecordedRequest] = []
    /// Requests scheduled for delivery and not yet delivered; held requests do not count.
    private var undelivered = 0
    private var idleWaits: [TimedWait] = []

    init(creationSite: CallSite) {
        self.creationSite = creationSite
    }

    // MARK: Stubs

    func add(_ route: RouteState) {
        lock.withLock { routes.append(route) }
    }

    func remove(_ route: RouteState) {
        lock.withLock { routes.removeAll { $0 === route } }
    }

    // MARK: Requests

    /// Records `request`, picks its answer, and delivers it into `sink` unless its route holds it.
    func start(_ request: RecordedRequest, sink: any ResponseSink) -> Exchange {
        // Matchers may run predicates from the test, so they run outside the lock, on a copy of the stubs. The
        // stub added last wins, so a test can override a general stub with a specific one.
        let route = lock.withLock { routes }.last { $0.matcher.matches(request) }
        let (exchange, isScheduled, delay, arrived, unmatched) = lock.withLock {
            () -> (Exchange, Bool, Duration?, [TimedWait], StubError?) in
            let outcome: Result<NetworkResponse, any Error>
            let unmatched: StubError?
            if let route {
                outcome = route.nextOutcome()
                unmatched = nil
            } else {
                let error = unmatchedError(for: request)
                outcome = .failure(error)
                unmatched = error
            }
            let exchange = Exchange(request: request, outcome: outcome, sink: sink)
            exchange.logIndex = log.count
            log.append(request)
            let arrived = route?.accept(exchange) ?? []
            let isScheduled = exchange.phase == .scheduled
            if isScheduled {
                undelivered += 1
            }
            return (exchange, isScheduled, route?.delay, arrived, unmatched)
        }
        if let unmatched {
            TestFailure.record(unmatched.message, at: creationSite)
        }
        for wait in arrived {
            wait.finish(true)
        }
        if isScheduled {
            schedule(exchange, after: delay)
        }
        return exchange
    }

    /// Delivers the requests a route held: all of them (and stops holding, in the same step, so that no later
    /// request overtakes them), or only the oldest.
    @discardableResult
    func release(_ route: RouteState, all: Bool) -> Int {
        let released: [Exchange] = lock.withLock {
            if all {
                route.isHolding = false
            }
            let released = route.takeHeld(all: all)
            for exchange in released {
                exchange.phase = .scheduled
            }
            undelivered += released.count
            return released
        }
        for exchange in released {
            schedule(exchange, after: nil)
        }
        return released.count
    }

    /// Completes the held requests `take` removes from `route` with `outcome`, on the delivery queue, and returns
    /// once it did: how many it completed.
    func answer(
        _ route: RouteState, taking take: (RouteState) -> [Exchange], with outcome: Result<NetworkResponse, any Error>
    ) async -> Int {
        let sinks: [any ResponseSink] = lock.withLock {
            take(route).compactMap { exchange in
                exchange.phase = .delivered
                defer { exchange.sink = nil }
                return exchange.sink
            }
        }
        await onQueue {
            for sink in sinks {
                sink.deliver(outcome)
            }
        }
        return sinks.count
    }

    /// Hands `sample` to the held request at `index` of `route`, on the delivery queue, and returns once it did:
    /// whether there was one.
    func reportProgress(_ sample: TransferProgress, toHeldAt index: Int, of route: RouteState) async -> Bool {
        let sink = lock.withLock { () -> (any ResponseSink)? in
            let live = route.liveHeld
            return live.indices.contains(index) ? live[index].sink : nil
        }
        guard let sink else { return false }
        await onQueue { sink.progress(sample) }
        return true
    }

    /// Runs `work` on the delivery queue, after what is queued there already, and returns once it ran.
    func onQueue(_ work: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            queue.async {
                work()
                done.resume()
            }
        }
    }

    /// Cancels a request: it completes with `URLError(.cancelled)` at once, unless it already completed.
    func cancel(_ exchange: Exchange) {
        let needsDelivery: Bool = lock.withLock {
            guard exchange.phase != .delivered, !exchange.isCancelled else { return false }
            exchange.isCancelled = true
            log[exchange.logIndex].wasCancelled = true
            if exchange.phase == .held {
                exchange.route?.forget(exchange)
                exchange.phase = .scheduled
                undelivered += 1
            }
            return true
        }
        if needsDelivery {
            // A request already scheduled (perhaps with a delay) completes now; its later delivery finds it done.
            schedule(exchange, after: nil)
        }
    }

    /// Suspends until no scheduled request is left undelivered, or the time runs out.
    func idle(timeout: Duration) async -> Bool {
        await TimedWait.until(timeout: timeout) { wait in
            lock.withLock {
                if undelivered == 0 { return true }
                idleWaits.removeAll { $0.isFinished }
                idleWaits.append(wait)
                return false
            }
        }
    }

    /// Runs `body` under the lock, for routes' reads of their own state.
    func withLock<T>(_ body: () -> T) -> T {
        lock.withLock(body)
    }

    private func schedule(_ exchange: Exchange, after delay: Duration?) {
        if let delay {
            queue.asyncAfter(deadline: .now() + delay.dispatchInterval) { self.deliver(exchange) }
        } else {
            queue.async { self.deliver(exchange) }
        }
    }

    private func deliver(_ exchange: Exchange) {
        guard callBack(exchange) else { return }
        let nowIdle: [TimedWait] = lock.withLock {
            undelivered -= 1
            guard undelivered == 0 else { return [] }
            defer { idleWaits = [] }
            return idleWaits
        }
        for wait in nowIdle {
            wait.finish(true)
        }
    }

    /// Hands a scheduled request its answer, unless it was delivered already; returns whether it did. The sink, and
    /// what it holds, is released by the time it returns, before anyone waiting for idleness resumes.
    private func callBack(_ exchange: Exchange) -> Bool {
        let delivery: (Result<NetworkResponse, any Error>, any ResponseSink)? = lock.withLock {
            guard exchange.phase == .scheduled, let sink = exchange.sink else { return nil }
            exchange.phase = .delivered
            exchange.sink = nil
            return (exchange.isCancelled ? .failure(URLError(.cancelled)) : exchange.outcome, sink)
        }
        guard let (result, sink) = delivery else { return false }
        if case .success = result, let sent = exchange.request.body?.count, sent > 0 {
            sink.progress(TransferProgress(bytesSent: Int64(sent), bytesExpectedToSend: Int64(sent)))
        }
        sink.deliver(result)
        return true
    }

    /// The error for a request no stub matches, listing the stubs there are. Called under the lock.
    private func unmatchedError(for request: RecordedRequest) -> StubError {
        let stubs = routes.isEmpty ? " none" : routes.map { "\n  \($0.matcher)" }.joined()
        let message = "StubNetworkingProvider: no stub matches \(request). Stubs:\(stubs)"
        return StubError(reason: .unmatchedRequest, message: message, request: request)
    }
}
