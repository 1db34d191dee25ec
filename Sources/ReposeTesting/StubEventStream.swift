import Foundation
import Repose

/// A scripted event stream: each connection a ``StubNetworkingProvider`` gets for its URL waits until the test
/// answers it, then receives the body piece by piece as the test sends it.
///
/// ```swift
/// let feed = network.stubEventStream("https://api.example.com/events")
/// let live = service.eventStream("/events")
/// live.connection.observe(owner: self) { print($0) }   // connects
/// feed.open()                                         // 200, text/event-stream
/// feed.send("event: star\ndata: /repos/7\n\n")        // one event, handled before `send` returns
/// feed.end()                                          // the server closed the stream
/// ```
///
/// Called on the main actor, as a test usually is, each call reaches Repose before it returns: a test sees its
/// effect without waiting. Each call answers the newest connection that is still open; one that was cancelled or
/// ended ignores it.
public final class StubEventStream: Sendable {
    /// The URL the stream answers, as an absolute string.
    public let url: String
    private let state = Mutex()

    init(url: String) {
        self.url = url
    }

    /// The request of every connection so far, oldest first. `Last-Event-ID` and other headers show here.
    public var requests: [RecordedRequest] {
        state.withLock { $0.connections.map(\.request) }
    }

    /// Whether a connection is under way: started, neither cancelled nor ended.
    public var isConnected: Bool {
        state.withLock { $0.connections.last.map { !$0.isOver } ?? false }
    }

    /// Answers the newest connection with a status and headers: by default 200 with `text/event-stream`.
    public func open(status: Int = 200, headers: [String: String] = ["Content-Type": "text/event-stream"]) {
        current { $0.response(NetworkResponse(statusCode: status, headers: headers)) }
    }

    /// Sends `text`, encoded as UTF-8, as the next piece of the newest connection's body.
    public func send(_ text: String) {
        send(Data(text.utf8))
    }

    /// Sends `bytes` as the next piece of the newest connection's body.
    public func send(_ bytes: Data) {
        current { $0.body(bytes) }
    }

    /// Ends the newest connection's body: the server closed the stream.
    public func end() {
        finish(with: nil)
    }

    /// Fails the newest connection with a transport error.
    public func fail(_ error: any Error = URLError(.networkConnectionLost)) {
        finish(with: error)
    }

    private func finish(with error: (any Error)?) {
        let ended = state.withLock { state -> StubStreamConnection? in
            guard let last = state.connections.last, !last.isOver else { return nil }
            last.isOver = true
            return last
        }
        ended?.completion(error)
    }

    /// Runs `deliver` on the newest connection still under way, outside the lock.
    private func current(_ deliver: (StubStreamConnection) -> Void) {
        let live = state.withLock { $0.connections.last.flatMap { $0.isOver ? nil : $0 } }
        if let live { deliver(live) }
    }

    /// A new connection, from the provider's `startStreaming`.
    func connect(_ connection: StubStreamConnection) {
        state.withLock { $0.connections.append(connection) }
    }

    /// Ends a connection without calling back: its task was cancelled.
    func cancel(_ connection: StubStreamConnection) {
        state.withLock { _ in connection.isOver = true }
    }

    /// The streams's connections, guarded by one lock.
    private final class Mutex: @unchecked Sendable {
        // Safe: `value` is only touched inside `withLock`.
        private let lock = NSLock()
        private var value = Connections()

        func withLock<T>(_ body: (inout Connections) -> T) -> T {
            lock.withLock { body(&value) }
        }
    }

    private struct Connections {
        var connections: [StubStreamConnection] = []
    }
}

/// One connection to a ``StubEventStream``: its request and where its parts go.
///
/// Safe (`@unchecked Sendable`): `isOver` is only touched under the owning stream's lock; the rest is immutable.
final class StubStreamConnection: @unchecked Sendable {
    let request: RecordedRequest
    let response: @Sendable (NetworkResponse) -> Void
    let body: @Sendable (Data) -> Void
    let completion: @Sendable ((any Error)?) -> Void
    var isOver = false

    init(
        request: RecordedRequest, response: @escaping @Sendable (NetworkResponse) -> Void,
        body: @escaping @Sendable (Data) -> Void, completion: @escaping @Sendable ((any Error)?) -> Void
    ) {
        self.request = request
        self.response = response
        self.body = body
        self.completion = completion
    }
}
