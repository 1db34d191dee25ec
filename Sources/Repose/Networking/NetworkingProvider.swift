import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The seam between Repose and whatever moves bytes over the network: one method.
///
/// Repose ships `URLSessionProvider`; `ReposeTesting` ships a stub for tests. Every request Repose sends (a load, a
/// write, an upload, a download, an event stream's connection) goes through ``startTransfer(_:into:)``: the provider
/// sends the request and hands its response to the sink as it arrives, the status and headers first, then the body
/// piece by piece, then the end. What the body becomes (bytes in memory, a file, events) is the sink's business.
///
/// A provider that can only deliver a whole response hands it over in one call:
///
/// ```swift
/// struct MyProvider: NetworkingProvider {
///     func startTransfer(_ request: URLRequest, into sink: any ResponseSink) -> any NetworkingTask {
///         let call = client.send(request) { result in   // Result<NetworkResponse, any Error>
///             sink.deliver(result)
///         }
///         return call  // a NetworkingTask: cancel() stops it
///     }
/// }
/// ```
///
/// Call the sink from any thread, but one call at a time, in order, and never from inside `startTransfer`: Repose
/// moves its own work (parsing, the app's models) off the thread that calls it, then back to the main actor.
public protocol NetworkingProvider: Sendable {
    /// Starts sending `request` and streams its response into `sink`.
    ///
    /// - Parameters:
    ///   - request: The fully built request: URL, method, headers and body.
    ///   - sink: Where the response goes: see ``ResponseSink``.
    /// - Returns: A handle that cancels the transfer. After a cancel, the sink may or may not hear more (Repose
    ///   ignores it).
    func startTransfer(_ request: URLRequest, into sink: any ResponseSink) -> any NetworkingTask
}

/// Where a provider hands a response as it arrives: ``receive(_:)-(NetworkResponse)`` once with the status and
/// headers, ``receive(_:)-(Data)`` with each piece of the body in order, ``progress(_:)`` whenever the upload moved,
/// and ``finish(_:connection:isFromCache:)`` once at the end.
///
/// When a `receive` returns `false`, the sink has ended the transfer itself (a body over its size limit, say):
/// stop the transfer and call nothing more.
public protocol ResponseSink: AnyObject, Sendable {
    /// The response's status and headers arrived; its ``NetworkResponse/body`` is empty. Returns whether the body is
    /// wanted.
    func receive(_ response: NetworkResponse) -> Bool
    /// The next piece of the body arrived. Returns whether more is wanted.
    func receive(_ bytes: Data) -> Bool
    /// How far the transfer has got: the request body's bytes sent, which only the provider sees; and, from a
    /// provider that hands the body over only at the end, the bytes received so far. Body pieces handed to
    /// ``receive(_:)-(Data)`` count by themselves.
    func progress(_ sample: TransferProgress)
    /// The transfer ended: `error` is `nil` when the body is complete, else the transport error. `connection` says
    /// how the connection was made, where the provider knows (for ``RequestMetrics``), and `isFromCache` whether a
    /// cache of the provider's answered without the network.
    func finish(_ error: (any Error)?, connection: ConnectionMetrics?, isFromCache: Bool)
}

extension ResponseSink {
    /// The transfer ended; see ``finish(_:connection:isFromCache:)``.
    public func finish(_ error: (any Error)? = nil) {
        finish(error, connection: nil, isFromCache: false)
    }

    /// Hands a whole response over, or the transport error: what a provider that cannot stream calls, once.
    public func deliver(_ result: Result<NetworkResponse, any Error>) {
        switch result {
        case .success(let response):
            var head = response
            head.body = Data()
            guard receive(head) else { return }
            // The body is all there: its length is known, as a `Content-Length` would announce it.
            progress(TransferProgress(bytesExpectedToReceive: Int64(response.body.count)))
            guard response.body.isEmpty || receive(response.body) else { return }
            finish(nil, connection: response.connection, isFromCache: response.isFromCache)
        case .failure(let error):
            finish(error)
        }
    }
}

/// A transfer in flight, as seen by Repose.
public protocol NetworkingTask: Sendable {
    /// Stops the transfer. Calling it more than once, or after completion, does nothing.
    func cancel()
}

/// What a server answered, before Repose reads its body.
public struct NetworkResponse: Sendable, Equatable {
    /// The HTTP status code.
    public var statusCode: Int
    /// The response headers as received. Repose looks them up case-insensitively.
    public var headers: [String: String]
    /// The response body; empty when there was none, and in what ``ResponseSink/receive(_:)-(NetworkResponse)``
    /// is given.
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
