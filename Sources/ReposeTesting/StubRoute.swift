import Foundation

/// One stub of a ``StubNetworkingProvider``: which requests it answers and how. Use it to hold responses back,
/// to wait for requests, and to see the requests it answered.
///
/// Hold a route to look at your code while its request is in flight, then release the response:
///
/// ```swift
/// let slow = network.stub(.get, "https://api.example.com/users/1", json: ["name": "Ada"]).held()
/// resource.load()
/// await slow.requested()          // the request has reached the provider
/// #expect(resource.isLoading)
/// slow.release()                  // deliver the response
/// await network.idle()
/// ```
public final class StubRoute: Sendable {
    let store: StubStore
    let state: RouteState

    init(store: StubStore, state: RouteState) {
        self.store = store
        self.state = state
    }

    /// Which requests this stub answers.
    public var matcher: StubMatcher {
        state.matcher
    }

    // MARK: Holding responses

    /// Holds responses back from now on: requests this stub matches wait, in flight, until ``release()`` or
    /// ``releaseNext()``. Requests already delivered are not affected.
    public func hold() {
        store.withLock { state.isHolding = true }
    }

    /// Holds responses back (see ``hold()``) and returns this route, for chaining after `stub(…)`.
    @discardableResult
    public func held() -> StubRoute {
        hold()
        return self
    }

    /// Delivers every held response, in the order the requests arrived, and stops holding: later requests are
    /// answered at once until ``hold()`` is called again.
    public func release() {
        store.release(state, all: true)
    }

    /// Delivers the oldest held response and keeps holding the others and any later ones.
    ///
    /// - Returns: Whether there was a held response to deliver.
    @discardableResult
    public func releaseNext() -> Bool {
        store.release(state, all: false) > 0
    }

    /// How many requests this stub holds right now.
    public var heldCount: Int {
        store.withLock { state.liveHeld.count }
    }

    // MARK: Delays

    /// Delivers this stub's responses `delay` after their requests arrive, and returns this route.
    ///
    /// For demos and playgrounds that should look like a real network. Tests should ``hold()`` instead: a hold
    /// is released exactly when the test says, with no clock involved.
    @discardableResult
    public func delayed(by delay: Duration) -> StubRoute {
        store.withLock { state.delay = delay }
        return self
    }

    // MARK: Requests

    /// The requests this stub answered or holds, in the order they arrived.
    public var requests: [RecordedRequest] {
        store.withLock { state.answered.map(\.snapshot) }
    }

    /// How many requests this stub answered or holds.
    public var requestCount: Int {
        store.withLock { state.answered.count }
    }

    /// Waits until this stub has received `count` requests in all (held ones included).
    ///
    /// If they do not come within `timeout`, records a test failure at the caller and returns `false`, so a
    /// test never hangs.
    ///
    /// ```swift
    /// resource.load()
    /// await route.requested()
    /// ```
    ///
    /// - Parameters:
    ///   - count: How many requests to wait for, counted since the stub was added; 1 unless given.
    ///   - timeout: How long to wait at most: 60 seconds unless given. A bound against a hang, not a speed check, so
    ///     generous: tests running in parallel on a busy machine can keep the main actor from a delivery for seconds.
    ///   - fileID: Where a timeout failure points, with `filePath`, `line` and `column`; leave them out.
    ///   - filePath: See `fileID`.
    ///   - line: See `fileID`.
    ///   - column: See `fileID`.
    /// - Returns: Whether the requests arrived in time.
    @discardableResult
    public func requested(
        count: Int = 1, timeout: Duration = .seconds(60), fileID: String = #fileID, filePath: String = #filePath,
        line: Int = #line, column: Int = #column
    ) async -> Bool {
        let arrived = await TimedWait.until(timeout: timeout) { wait in
            store.withLock { state.awaitArrival(count: count, wait) }
        }
        if !arrived {
            let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
            let seen = requestCount
            TestFailure.record(
                "Timed out after \(timeout) waiting for request \(count) to \(matcher); it has seen \(seen).",
                at: site)
        }
        return arrived
    }

    /// Stops this stub from matching further requests. Held requests stay held until released or cancelled.
    public func remove() {
        store.remove(state)
    }
}
