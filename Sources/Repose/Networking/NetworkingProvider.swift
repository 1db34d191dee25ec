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

    /// Creates a response.
    public init(statusCode: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
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

/// The seam between Repose and whatever moves bytes over the network.
///
/// Repose ships `URLSessionProvider`; `ReposeTesting` ships a stub for tests. A provider may call its callbacks
/// on any thread: Repose parses the response where it arrives and then hops to the main actor once.
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
}

/// A transfer in flight, as seen by Repose.
public protocol NetworkingTask: Sendable {
    /// Stops the transfer. Calling it more than once, or after completion, does nothing.
    func cancel()
}
