import Foundation
import Repose

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension StubNetworkingProvider {
    /// Scripts the event stream at `url` (an absolute URL): every streamed request to it becomes a connection of
    /// the returned ``StubEventStream``, which the test answers.
    ///
    /// - Parameter url: The stream's absolute URL, as the request will carry it.
    /// - Returns: The stream; calling this again for the same URL returns a new one that takes its place.
    @discardableResult
    public func stubEventStream(_ url: String) -> StubEventStream {
        let stream = StubEventStream(url: url)
        streams.withLock { $0[url] = stream }
        return stream
    }

    /// Streams `request`: through its ``StubEventStream`` when the test made one for its URL, else as the stubs
    /// answer any request, with the whole body in one piece.
    public func startStreaming(
        _ request: URLRequest,
        response: @escaping @Sendable (NetworkResponse) -> Void,
        body: @escaping @Sendable (Data) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> any NetworkingTask {
        let url = request.url?.absoluteString ?? ""
        guard let stream = streams.withLock({ $0[url] }) else {
            return startRequest(request, progress: { _ in }) { result in
                switch result {
                case .success(let whole):
                    response(NetworkResponse(statusCode: whole.statusCode, headers: whole.headers))
                    if !whole.body.isEmpty { body(whole.body) }
                    completion(nil)
                case .failure(let error):
                    completion(error)
                }
            }
        }
        let recorded = RecordedRequest(
            httpMethod: request.httpMethod ?? "GET", url: url, headers: request.allHTTPHeaderFields ?? [:],
            timeoutInterval: request.timeoutInterval)
        let connection = StubStreamConnection(request: recorded, response: response, body: body, completion: completion)
        stream.connect(connection)
        return StubStreamTask(stream: stream, connection: connection)
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
