import Foundation
import Repose

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A networking provider for tests: answers requests with scripted responses instead of using the network, and
/// records every request it sees.
///
/// ```swift
/// let network = StubNetworkingProvider()
/// network.stub(.get, "https://api.example.com/users/1", json: ["name": "Ada"])
/// network.stub(.post, "https://api.example.com/users", status: 201, text: "created")
/// network.stub(.get, "https://api.example.com/down", error: URLError(.notConnectedToInternet))
///
/// // Give `network` to the code under test in place of the real provider, let it load, then:
/// await network.idle()
/// #expect(network.requests.map(\.url) == ["https://api.example.com/users/1"])
/// ```
///
/// **Matching.** Each request is answered by the most recently added stub that matches it, so a test can add a
/// general stub first and specific ones after. See ``StubMatcher`` for matching by headers, body or a URL
/// predicate.
///
/// **Delivery.** Like a real network, responses arrive asynchronously, never inside `startTransfer`, and off the main
/// queue: on a serial queue of the provider's own, the status and headers first, then the body, then the end, in
/// the order they were released. Repose brings them to the main actor as it brings a real network's, so a test sees
/// its code run as it will in the app. ``idle(timeout:fileID:filePath:line:column:)`` waits for them, from a
/// main-actor test or any other; ``StubRoute/held()`` holds them back until the test releases them;
/// ``StubRoute/delayed(by:)`` delivers them later. Cancelling a request ends it with `URLError(.cancelled)`.
///
/// A wait for the provider (``idle(timeout:fileID:filePath:line:column:)``, an answer by hand such as
/// ``StubRoute/respond(_:toHeldAt:)``) returns once its deliveries were handed to Repose; Repose's main-actor work
/// for them is done by the time a main-actor test resumes after it, unless a large body is parsed off the main actor
/// first: await the request (`await request.response`) to wait for its outcome.
///
/// **Unmatched requests.** A request that no stub matches fails the running test with a message that lists the
/// stubs (through Swift Testing, pointing at the line that created the provider), and completes with a
/// ``StubError``, so the code under test sees an ordinary transport failure instead of crashing.
///
/// A provider is safe to use from any thread.
public final class StubNetworkingProvider: NetworkingProvider {
    let store: StubStore
    /// The event streams the test scripted (see ``stubEventStream(_:)``).
    let streams = StubStreams()

    /// Creates a provider with no stubs.
    ///
    /// The source-location parameters say where failures for unmatched requests point; leave them out.
    public init(fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) {
        store = StubStore(creationSite: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Adds a stub that answers requests `matcher` accepts with `response`, every time.
    ///
    /// ```swift
    /// network.stub(StubMatcher(.get, "https://api.example.com/users/1"), .json(["name": "Ada"]))
    /// ```
    ///
    /// - Returns: The stub, to hold its responses or see its requests.
    @discardableResult
    public func stub(_ matcher: StubMatcher, _ response: StubResponse) -> StubRoute {
        stub(matcher, responses: [response])
    }

    /// Adds a stub that answers successive requests `matcher` accepts with successive `responses`, repeating the
    /// last one once they run out.
    ///
    /// ```swift
    /// network.stub(
    ///     StubMatcher(.get, "https://api.example.com/flaky"),
    ///     responses: [.error(URLError(.timedOut)), .status(503), .json(["ok": true])])
    /// ```
    ///
    /// - Returns: The stub, to hold its responses or see its requests.
    @discardableResult
    public func stub(_ matcher: StubMatcher, responses: [StubResponse]) -> StubRoute {
        if responses.isEmpty {
            TestFailure.record("StubNetworkingProvider.stub(_:responses:) was given no responses for \(matcher).")
        }
        let state = RouteState(matcher: matcher, responses: responses)
        store.add(state)
        return StubRoute(store: store, state: state)
    }

    /// Every request the provider has seen, matched or not, in the order they were sent.
    public var requests: [RecordedRequest] {
        store.withLock { store.log }
    }

    /// Waits until every response on its way has been delivered (its completion called). Held responses do not
    /// count: they wait for ``StubRoute/release()``.
    ///
    /// Returns at once when nothing is on its way. If the responses are not delivered within `timeout` (a stub
    /// with a long delay, say), records a test failure at the caller and returns `false`.
    ///
    /// Only requests already sent are waited for: code that sends its request later, after some asynchronous
    /// step of its own, needs a ``StubRoute/requested(count:timeout:fileID:filePath:line:column:)`` first. Work
    /// that a completion schedules elsewhere (on the main actor, say) may still be pending when this returns.
    ///
    /// - Parameters:
    ///   - timeout: How long to wait at most: 60 seconds unless given. A bound against a hang, not a speed check, so
    ///     generous: tests running in parallel on a busy machine can keep the main actor from a delivery for seconds.
    ///   - fileID: Where a timeout failure points, with `filePath`, `line` and `column`; leave them out.
    ///   - filePath: See `fileID`.
    ///   - line: See `fileID`.
    ///   - column: See `fileID`.
    /// - Returns: Whether everything was delivered in time.
    @discardableResult
    public func idle(
        timeout: Duration = .seconds(60), fileID: String = #fileID, filePath: String = #filePath,
        line: Int = #line, column: Int = #column
    ) async -> Bool {
        let idle = await store.idle(timeout: timeout)
        if !idle {
            let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
            TestFailure.record("Timed out after \(timeout) waiting for the stub provider to deliver.", at: site)
        }
        return idle
    }

    /// Answers `request` from the stubs, or connects it to the ``StubEventStream`` the test made for its URL. See
    /// `NetworkingProvider.startTransfer(_:into:)`.
    public func startTransfer(_ request: URLRequest, into sink: any ResponseSink) -> any NetworkingTask {
        let recorded = RecordedRequest(
            httpMethod: request.httpMethod ?? "GET", url: request.url, headers: request.allHTTPHeaderFields ?? [:],
            body: request.httpBody, timeoutInterval: request.timeoutInterval)
        if let stream = streams.withLock({ $0[recorded.url] }) {
            let connection = StubStreamConnection(request: recorded, sink: sink)
            stream.connect(connection)
            return StubStreamTask(stream: stream, connection: connection)
        }
        return StubTask(store: store, exchange: store.start(recorded, sink: sink))
    }
}
