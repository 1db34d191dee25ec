import Foundation
import Repose

/// One request's life in a ``StubNetworkingProvider``: what was sent, what it will be answered, and how far the
/// answer has got. Mutable state is guarded by the owning ``StubStore``'s lock.
final class Exchange: @unchecked Sendable {
    // `@unchecked Sendable`: the variables change only under the owning store's lock; the constants never change.

    enum Phase {
        /// Waiting for its route to release it.
        case held
        /// On its way to the delivery queue.
        case scheduled
        /// Its completion has been called.
        case delivered
    }

    let request: RecordedRequest
    let outcome: Result<NetworkResponse, any Error>
    /// Where the response goes, dropped once delivered so that the log does not keep what it holds alive.
    var sink: (any ResponseSink)?
    var phase = Phase.scheduled
    var isCancelled = false
    /// Where the store's log keeps this request.
    var logIndex = 0
    /// The route holding this request, while it is held.
    weak var route: RouteState?

    init(request: RecordedRequest, outcome: Result<NetworkResponse, any Error>, sink: any ResponseSink) {
        self.request = request
        self.outcome = outcome
        self.sink = sink
    }

    /// The request as recorded, with whether it has been cancelled so far. Read under the store's lock.
    var snapshot: RecordedRequest {
        var copy = request
        copy.wasCancelled = isCancelled
        return copy
    }
}

/// The handle ``StubNetworkingProvider`` returns for a request: cancelling it completes the request with
/// `URLError(.cancelled)`, as `URLSession` does, unless it already completed.
struct StubTask: NetworkingTask {
    let store: StubStore
    let exchange: Exchange

    func cancel() {
        store.cancel(exchange)
    }
}

/// A stub's state: its matcher and responses, and the requests it answered or holds. Mutable state is guarded by
/// the owning ``StubStore``'s lock; every method here is called with that lock held.
final class RouteState: @unchecked Sendable {
    // `@unchecked Sendable`: the variables change only under the owning store's lock.

    let matcher: StubMatcher
    private let responses: [StubResponse]
    private var nextResponse = 0
    var isHolding = false
    var delay: Duration?
    /// The requests held, oldest first; cancelled ones leave it lazily (see ``forget(_:)``), so read it through
    /// ``liveHeld``.
    private var held: [Exchange] = []
    private var hasCancelledHeld = false
    private(set) var answered: [Exchange] = []
    private var arrivalWaits: [(count: Int, wait: TimedWait)] = []

    init(matcher: StubMatcher, responses: [StubResponse]) {
        self.matcher = matcher
        self.responses = responses
    }

    /// The answer for the next request: the responses in turn, the last one again once they run out.
    func nextOutcome() -> Result<NetworkResponse, any Error> {
        guard let response = responses.indices.contains(nextResponse) ? responses[nextResponse] : responses.last
        else {
            let message = "The stub for \(matcher) has no response of its own: answer its requests with respond(_:)."
            return .failure(StubError(reason: .invalidStub, message: message))
        }
        nextResponse += 1
        return response.result
    }

    /// Takes a request this route answers; holds it if the route is holding. Returns the waits now satisfied.
    func accept(_ exchange: Exchange) -> [TimedWait] {
        answered.append(exchange)
        if isHolding {
            exchange.phase = .held
            exchange.route = self
            held.append(exchange)
        }
        let count = answered.count
        let satisfied = arrivalWaits.filter { $0.count <= count }.map(\.wait)
        arrivalWaits.removeAll { $0.count <= count || $0.wait.isFinished }
        return satisfied
    }

    /// The requests held and not cancelled, oldest first.
    var liveHeld: [Exchange] {
        if hasCancelledHeld {
            held.removeAll { $0.isCancelled }
            hasCancelledHeld = false
        }
        return held
    }

    /// Removes and returns the held requests: all of them, or the oldest.
    func takeHeld(all: Bool) -> [Exchange] {
        takeOldest(all ? liveHeld.count : 1)
    }

    /// Removes and returns the `count` oldest held requests, or as many as there are.
    func takeOldest(_ count: Int) -> [Exchange] {
        let taken = Array(liveHeld.prefix(max(count, 0)))
        held.removeFirst(taken.count)
        for exchange in taken {
            exchange.route = nil
        }
        return taken
    }

    /// Removes and returns the held request at `index`, 0 being the oldest; `nil` when there is none.
    func takeHeld(at index: Int) -> Exchange? {
        guard index >= 0, index < liveHeld.count else { return nil }
        let exchange = held.remove(at: index)
        exchange.route = nil
        return exchange
    }

    /// Stops holding a request that was cancelled. It leaves ``held`` when the list is next read, so that
    /// cancelling many held requests, in any order, costs one pass rather than a search each.
    func forget(_ exchange: Exchange) {
        exchange.route = nil
        hasCancelledHeld = true
    }

    /// Registers a wait for the `count`th request; `true` if it has already arrived.
    func awaitArrival(count: Int, _ wait: TimedWait) -> Bool {
        if answered.count >= count { return true }
        arrivalWaits.append((count, wait))
        return false
    }
}
