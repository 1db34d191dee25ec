import Foundation
import Repose

/// A scripted event stream: each connection a ``StubNetworkingProvider`` gets for its URL waits until the test
/// answers it, then receives the body piece by piece as the test sends it.
///
/// ```swift
/// let feed = network.stubEventStream("https://api.example.com/events")
/// let live = service.eventStream("/events")
/// live.connection.observe(owner: self) { print($0) }   // connects
/// await feed.open()                                   // 200, text/event-stream
/// await feed.send("event: star\ndata: /repos/7\n\n")  // one event, handled once `send` returns
/// await feed.end()                                    // the server closed the stream
/// ```
///
/// Each call delivers on the provider's queue, off the main queue as a network does, and returns once Repose has
/// it: a main-actor test that resumes after it sees its effect. Each call answers the newest connection that is
/// still open; one that was cancelled or ended ignores it, and so does one whose response Repose refused (a 204).
public final class StubEventStream: Sendable {
    /// The URL the stream answers, as an absolute string.
    public let url: String
    private let state = Mutex()
    /// The provider's delivery queue.
    private let queue: DispatchQueue

    init(url: String, queue: DispatchQueue) {
        self.url = url
        self.queue = queue
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
    public func open(
        status: Int = 200, headers: [String: String] = ["Content-Type": "text/event-stream"]
    ) async {
        await deliver { $0.receive(NetworkResponse(statusCode: status, headers: headers)) }
    }

    /// Sends `text`, encoded as UTF-8, as the next piece of the newest connection's body.
    public func send(_ text: String) async {
        await send(Data(text.utf8))
    }

    /// Sends `bytes` as the next piece of the newest connection's body.
    public func send(_ bytes: Data) async {
        await deliver { $0.receive(bytes) }
    }

    /// Ends the newest connection's body: the server closed the stream.
    public func end() async {
        await deliver {
            $0.finish(nil)
            return false
        }
    }

    /// Fails the newest connection with a transport error.
    public func fail(_ error: any Error = URLError(.networkConnectionLost)) async {
        await deliver {
            $0.finish(error)
            return false
        }
    }

    /// Hands the newest connection still under way to `step` on the provider's queue, and returns once it ran. A
    /// step that returns `false` (Repose wants no more, or the connection ended) ends the connection.
    private func deliver(_ step: @escaping @Sendable (any ResponseSink) -> Bool) async {
        guard let live = state.withLock({ $0.connections.last.flatMap { $0.isOver ? nil : $0 } }) else { return }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            queue.async { [state] in
                if !state.withLock({ _ in live.isOver }), !step(live.sink) {
                    state.withLock { _ in live.isOver = true }
                }
                done.resume()
            }
        }
    }

    /// A new connection, from the provider's `startTransfer`.
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

/// One connection to a ``StubEventStream``: its request and where its response goes.
///
/// Safe (`@unchecked Sendable`): `isOver` is only touched under the owning stream's lock; the rest is immutable.
final class StubStreamConnection: @unchecked Sendable {
    let request: RecordedRequest
    let sink: any ResponseSink
    var isOver = false

    init(request: RecordedRequest, sink: any ResponseSink) {
        self.request = request
        self.sink = sink
    }
}
