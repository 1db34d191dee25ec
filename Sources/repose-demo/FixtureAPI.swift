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
    /// ``isOffline``. For routes answered outside ``startRequest(_:progress:completion:)``: the live feed.
    func withServer<T>(_ body: (inout FixtureServer) -> T) -> T? {
        lock.withLock {
            count += 1
            return isDown ? nil : body(&server)
        }
    }

    /// How many requests reached the fixture.
    var requestCount: Int { lock.withLock { count } }

    /// Answers `request` from ``FixtureServer`` after the latency (a large body in chunks, with progress), or
    /// fails it as with no network while ``isOffline``.
    func startRequest(
        _ request: URLRequest, progress: @escaping @Sendable (TransferProgress) -> Void,
        completion: @escaping @Sendable (Result<NetworkResponse, any Error>) -> Void
    ) -> any NetworkingTask {
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
                if !task.isCancelled { completion(.failure(URLError(.notConnectedToInternet))) }
            }
            return task
        }
        if reply.isChunked { sendChunks(of: reply.response, task: task, progress: progress) }
        let chunks = reply.isChunked ? Self.chunkCount : 0
        let done = timing.latency.interval + Double(chunks) * timing.chunkInterval.interval
        queue.asyncAfter(deadline: .now() + done) {
            if !task.isCancelled { completion(.success(reply.response)) }
        }
        return task
    }

    /// Reports a large body's bytes arriving, one chunk at a time after the latency.
    private func sendChunks(
        of response: NetworkResponse, task: FixtureTask, progress: @escaping @Sendable (TransferProgress) -> Void
    ) {
        let total = Int64(response.body.count)
        for chunk in 1...Self.chunkCount {
            let delay = timing.latency.interval + Double(chunk) * timing.chunkInterval.interval
            queue.asyncAfter(deadline: .now() + delay) {
                guard !task.isCancelled else { return }
                let received = total * Int64(chunk) / Int64(Self.chunkCount)
                progress(TransferProgress(bytesReceived: received, bytesExpectedToReceive: total))
            }
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

    /// Drops the response: neither progress nor completion is called after this.
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
