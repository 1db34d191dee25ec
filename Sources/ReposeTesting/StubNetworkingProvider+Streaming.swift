import Foundation
import Repose

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension StubNetworkingProvider {
    /// Scripts the event stream at `url` (an absolute URL): every request to it becomes a connection of
    /// the returned ``StubEventStream``, which the test answers.
    ///
    /// - Parameter url: The stream's absolute URL, as the request will carry it.
    /// - Returns: The stream; calling this again for the same URL returns a new one that takes its place.
    @discardableResult
    public func stubEventStream(_ url: String) -> StubEventStream {
        let stream = StubEventStream(url: url, queue: store.queue)
        streams.withLock { $0[url] = stream }
        return stream
    }

    /// Scripts the streamed body at `url` (an absolute URL), piece by piece, for a streamed request
    /// (`Resource.streamRequest`) or any other: the same as ``stubEventStream(_:)``; open it with the body's own
    /// content type.
    ///
    /// ```swift
    /// let feed = network.stubStream("https://api.example.com/feed")
    /// let streamed = service.resource("/feed").streamRequest()
    /// await feed.open(headers: ["Content-Type": "application/x-ndjson"])
    /// await feed.send("{\"n\": 1}\n{\"n\"")   // a piece may end inside a line
    /// await feed.send(": 2}\n")
    /// await feed.end()
    /// ```
    ///
    /// Each `send` returns once Repose has the piece; one that finds the request's buffer full returns once the
    /// reader made room, as a real network is held back.
    @discardableResult
    public func stubStream(_ url: String) -> StubEventStream {
        stubEventStream(url)
    }
}

/// Cancels a connection to a ``StubEventStream``.
struct StubStreamTask: NetworkingTask {
    let stream: StubEventStream
    let connection: StubStreamConnection

    func cancel() {
        stream.cancel(connection)
    }
}

/// The event streams a test scripted, by URL.
///
/// Safe (`@unchecked Sendable`): `byURL` is only touched inside `withLock`.
final class StubStreams: @unchecked Sendable {
    private let lock = NSLock()
    private var byURL: [String: StubEventStream] = [:]

    func withLock<T>(_ body: (inout [String: StubEventStream]) -> T) -> T {
        lock.withLock { body(&byURL) }
    }
}
