import Foundation
import Repose

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A GitHub-like API inside the demo, so that `swift run repose-demo` needs no network: a `NetworkingProvider`
/// that answers from ``FixtureServer`` after a realistic delay, trickles large bodies in chunks with progress, and
/// can be switched off as a network that is down would be.
final class FixtureAPI: NetworkingProvider, @unchecked Sendable {
    // Safe: `server`, `isDown` and `count` are only touched under `lock`; the timing never changes.

    /// How slow the fixture is, and how long its data stays fresh.
    struct Timing {
        /// The time before a response starts.
        var latency: Duration
        /// The time between two chunks of a large body.
        var chunkInterval: Duration
        /// The `max-age` of every JSON response.
        var maxAge: Int

        /// For a person at the keyboard: a network you can see, and data fresh for 30 seconds.
        static let interactive = Timing(latency: .milliseconds(250), chunkInterval: .milliseconds(50), maxAge: 30)
        /// For the scripted tour: quick, and data stale at once, so that every revalidation shows.
        static let tour = Timing(latency: .milliseconds(30), chunkInterval: .milliseconds(15), maxAge: 0)
    }

    /// The base URL the fixture answers for; it never reaches the network.
    static let baseURL = "https://api.repose-fixture.example"
    /// How many chunks a large body arrives in.
    static let chunkCount = 32

    /// How slow the fixture is, and the lifetime it gives its data.
    let timing: Timing
    private let lock = NSLock()
    private var server: FixtureServer
    private var isDown = false
    private var count = 0
    private let queue = DispatchQueue(label: "repose-demo.fixture")

    /// A fixture with `timing`, and the data of ``FixtureData``.
    init(timing: Timing) {
        self.timing = timing
        server = FixtureServer(baseURL: Self.baseURL, maxAge: timing.maxAge)
    }

    /// Whether every request fails as it would with no network.
    var isOffline: Bool {
        get { lock.withLock { isDown } }
        set { lock.withLock { isDown = newValue } }
    }

    /// Counts one request and runs `body` on the server under the lock; `nil` (and `body` does not run) while
    /// ``isOffline``. For routes answered outside ``startTransfer(_:into:)``'s usual path: the live feed.
    func withServer<T>(_ body: (inout FixtureServer) -> T) -> T? {
        lock.withLock {
            count += 1
            return isDown ? nil : body(&server)
        }
    }

    /// How many requests reached the fixture.
    var requestCount: Int { lock.withLock { count } }

    /// Answers `request` from ``FixtureServer`` after the latency (a large body in chunks, a moment apart), or
    /// fails it as with no network while ``isOffline``. The repositories' event streams are live feeds (see
    /// ``startLiveFeed(_:into:)``).
    func startTransfer(_ request: URLRequest, into sink: any ResponseSink) -> any NetworkingTask {
        if let feed = startLiveFeed(request, into: sink) { return feed }
        let task = FixtureTask()
        let reply: FixtureServer.Reply? = lock.withLock {
            count += 1
            guard !isDown else { return nil }
            return server.reply(
                method: request.httpMethod ?? "GET", url: request.url,
                ifNoneMatch: request.value(forHTTPHeaderField: "If-None-Match"))
        }
        guard let reply else {
            queue.asyncAfter(deadline: .now() + timing.latency.interval) {
                if !task.isCancelled { sink.finish(URLError(.notConnectedToInternet)) }
            }
            return task
        }
        let body = reply.response.body
        var response = reply.response
        response.body = Data()
        response.headers["Content-Length"] = String(body.count)
        let head = response
        let chunks = reply.isChunked ? Self.chunkCount : 1
        queue.asyncAfter(deadline: .now() + timing.latency.interval) {
            guard !task.isCancelled, sink.receive(head) else { return }
            self.send(body, in: chunks, from: 1, task: task, to: sink)
        }
        return task
    }

    /// Sends chunk `number` of `body`'s `count`, then the next one a moment later, then the end.
    private func send(_ body: Data, in count: Int, from number: Int, task: FixtureTask, to sink: any ResponseSink) {
        guard !task.isCancelled else { return }
        let range = body.count * (number - 1) / count..<body.count * number / count
        guard range.isEmpty || sink.receive(body.subdata(in: range)) else { return }
        guard number < count else { return sink.finish() }
        queue.asyncAfter(deadline: .now() + timing.chunkInterval.interval) {
            self.send(body, in: count, from: number + 1, task: task, to: sink)
        }
    }
}

/// A fixture request in flight.
final class FixtureTask: NetworkingTask, @unchecked Sendable {
    // Safe: the flag is only touched under the lock.
    private let lock = NSLock()
    private var cancelled = false

    /// Whether ``cancel()`` was called.
    var isCancelled: Bool { lock.withLock { cancelled } }

    /// Drops the response: its sink hears nothing more.
    func cancel() {
        lock.withLock { cancelled = true }
    }
}

extension Duration {
    /// This duration in seconds, for Dispatch deadlines.
    var interval: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
