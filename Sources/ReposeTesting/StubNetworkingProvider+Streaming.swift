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
