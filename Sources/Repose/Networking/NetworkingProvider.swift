import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a server answered, before Repose parses anything.
public struct NetworkResponse: Sendable, Equatable {
    /// The HTTP status code.
    public var statusCode: Int
    /// The response headers as received. Repose looks them up case-insensitively.
    public var headers: [String: String]
    /// The response body; empty when there was none.
    public var body: Data
    /// How many redirects the provider followed before this response, for ``RequestMetrics/redirects``; 0 when
    /// there were none or the provider does not count them.
    public var redirectCount: Int
    /// How the connection was made, for ``RequestMetrics/connection``, where the provider knows it.
    public var connection: ConnectionMetrics?
    /// Whether the platform's HTTP cache (`URLCache`) answered without the network, for ``RequestMetrics/source``.
    public var isFromCache: Bool

    /// Creates a response.
    public init(
        statusCode: Int, headers: [String: String] = [:], body: Data = Data(), redirectCount: Int = 0,
        connection: ConnectionMetrics? = nil, isFromCache: Bool = false
    ) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.redirectCount = redirectCount
        self.connection = connection
        self.isFromCache = isFromCache
    }
}

extension NetworkResponse {
    /// The default of ``Configuration/maximumResponseSize``: 32 MiB, three times the largest body the project budgets
    /// for (10 MB), and far below what a device can hold.
    static let defaultMaximumSize = 32 * 1024 * 1024
}

/// How far a request's upload and download have got. A total of `nil` means the size is not known.
public struct TransferProgress: Sendable, Equatable {
    /// Body bytes sent so far.
    public var bytesSent: Int64
    /// Body bytes that will be sent, if known.
    public var bytesExpectedToSend: Int64?
    /// Body bytes received so far.
    public var bytesReceived: Int64
    /// Body bytes the response announced, if known.
    public var bytesExpectedToReceive: Int64?

    /// Creates a progress sample.
    public init(
        bytesSent: Int64 = 0, bytesExpectedToSend: Int64? = nil,
        bytesReceived: Int64 = 0, bytesExpectedToReceive: Int64? = nil
    ) {
        self.bytesSent = bytesSent
        self.bytesExpectedToSend = bytesExpectedToSend
        self.bytesReceived = bytesReceived
        self.bytesExpectedToReceive = bytesExpectedToReceive
    }
}

/// The seam between Repose and whatever moves bytes over the network.
///
/// Repose ships `URLSessionProvider`; `ReposeTesting` ships a stub for tests. A provider may call its callbacks
/// on any thread: Repose parses the response where it arrives and then hops to the main actor once.
///
/// Repose starts every request with ``startRequest(_:maximumResponseSize:progress:completion:)``. A provider that
/// implements only ``startRequest(_:progress:completion:)`` gets a default for it that checks the size of the
/// complete response; one that can stop a transfer as it grows (as `URLSessionProvider` does) should implement both.
public protocol NetworkingProvider: Sendable {
    /// Starts sending `request`.
    ///
    /// - Parameters:
    ///   - request: The fully built request: URL, method, headers and body.
    ///   - progress: Called with transfer progress samples, any number of times, before `completion`.
    ///   - completion: Called exactly once with the response or the transport error, unless the task was
    ///     cancelled, in which case it may or may not be called (Repose ignores it).
    /// - Returns: A handle that cancels the transfer.
    func startRequest(
        _ request: URLRequest,
        progress: @escaping @Sendable (TransferProgress) -> Void,
        completion: @escaping @Sendable (Result<NetworkResponse, any Error>) -> Void
    ) -> any NetworkingTask

    /// Starts sending `request`, and fails it once its body grows past `maximumResponseSize` bytes.
    ///
    /// The body is counted as delivered, after any `Content-Encoding` is undone. When it passes the limit, the
    /// provider stops the transfer, drops what arrived and completes with
    /// ``RequestError/Cause/ResponseTooLarge``.
    ///
    /// - Parameters:
    ///   - request: The fully built request: URL, method, headers and body.
    ///   - maximumResponseSize: The largest body accepted, in bytes.
    ///   - progress: Called with transfer progress samples, any number of times, before `completion`.
    ///   - completion: Called exactly once with the response or the error, unless the task was cancelled.
    /// - Returns: A handle that cancels the transfer.
    func startRequest(
        _ request: URLRequest,
        maximumResponseSize: Int,
        progress: @escaping @Sendable (TransferProgress) -> Void,
        completion: @escaping @Sendable (Result<NetworkResponse, any Error>) -> Void
    ) -> any NetworkingTask

    /// Starts `request` and hands over its response's body piece by piece, as it arrives. See the default
    /// implementation, which waits for the whole body.
    func startStreaming(
        _ request: URLRequest,
        response: @escaping @Sendable (NetworkResponse) -> Void,
        body: @escaping @Sendable (Data) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> any NetworkingTask
}

extension NetworkResponse {
    /// `result`, or a failure with ``RequestError/Cause/ResponseTooLarge`` when its body is over `maximumSize`.
    static func limiting(
        _ result: Result<NetworkResponse, any Error>, to maximumSize: Int
    ) -> Result<NetworkResponse, any Error> {
        guard case .success(let response) = result, response.body.count > maximumSize else { return result }
        return .failure(RequestError.Cause.ResponseTooLarge(maximumSize: maximumSize))
    }
}

extension NetworkingProvider {
    /// Starts `request` with ``startRequest(_:progress:completion:)`` and fails a response whose complete body is
    /// larger than `maximumResponseSize` with ``RequestError/Cause/ResponseTooLarge``.
    ///
    /// The body is only checked once it is all there, so implement this method in a provider that can stop a
    /// transfer as it grows.
    public func startRequest(
        _ request: URLRequest,
        maximumResponseSize: Int,
        progress: @escaping @Sendable (TransferProgress) -> Void,
        completion: @escaping @Sendable (Result<NetworkResponse, any Error>) -> Void
    ) -> any NetworkingTask {
        startRequest(request, progress: progress) { result in
            completion(NetworkResponse.limiting(result, to: maximumResponseSize))
        }
    }
}

// MARK: Streaming (an event stream's body, as it arrives)

extension NetworkingProvider {
    /// Starts `request` and hands over its response's body piece by piece, as it arrives: what an
    /// ``EventStream`` reads.
    ///
    /// `URLSessionProvider` and the `ReposeTesting` stub implement it. This default, for any other provider, sends
    /// the request with ``startRequest(_:progress:completion:)`` and hands over the body once it is complete: a
    /// stream whose body never ends delivers nothing. Implement it in a provider that can stream.
    ///
    /// - Parameters:
    ///   - request: The fully built request.
    ///   - response: Called once with the status and headers (its ``NetworkResponse/body`` is empty), before any
    ///     `body` call.
    ///   - body: Called with each piece of the body, in order, any number of times.
    ///   - completion: Called once when the transfer ends: `nil` when the body ended, else the transport error. Not
    ///     called after the task is cancelled.
    /// - Returns: A handle that stops the transfer.
    public func startStreaming(
        _ request: URLRequest,
        response: @escaping @Sendable (NetworkResponse) -> Void,
        body: @escaping @Sendable (Data) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> any NetworkingTask {
        startWholeBody(request, response: response, body: body, completion: completion)
    }

    /// Streams `request`'s body in one piece, once it is complete: what a provider that cannot stream does.
    func startWholeBody(
        _ request: URLRequest,
        response: @escaping @Sendable (NetworkResponse) -> Void,
        body: @escaping @Sendable (Data) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> any NetworkingTask {
        startRequest(request, progress: { _ in }) { result in
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
}

/// A transfer in flight, as seen by Repose.
public protocol NetworkingTask: Sendable {
    /// Stops the transfer. Calling it more than once, or after completion, does nothing.
    func cancel()
}
