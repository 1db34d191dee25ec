import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Resource {
    /// Sends a request whose response body reaches the app as it arrives, in pieces, lines or NDJSON values
    /// (rules U2, U4, U5):
    ///
    /// ```swift
    /// let log = api.resource("/builds/42/log").streamRequest()
    /// for try await line in log.lines {
    ///     print(line)
    /// }
    /// ```
    ///
    /// The request is built like any other of this resource (configured headers, mutators, the authenticator's
    /// credential) and goes through its decorators, so hooks, progress, monitors and logs work as usual. A 401
    /// before the body starts the authenticator's one refresh, and ``Configuration/retryPolicy`` may send the
    /// request again, but only before any of the body has reached the app: once it has, a failure ends the reading.
    /// ``Configuration/maximumResponseSize`` does not apply: the body never sits in memory whole. An error status
    /// fails the reading with the request's ``RequestError``, its body parsed as any error's.
    ///
    /// The resource's state does not change: the body is the reader's.
    ///
    /// - Parameters:
    ///   - method: The HTTP method; a body, if any, is set by `requestMutation`.
    ///   - headers: Headers of this request only, set after the configured ones.
    ///   - bufferSize: How many unread bytes wait in memory (rule U4); more wait in a private temporary file, so a
    ///     reader slower than the network keeps memory flat. 1 MiB unless given.
    ///   - maximumLineLength: The longest line or NDJSON value read, in bytes: a longer one fails the reading with
    ///     ``RequestError/Cause/LineTooLong``. 1 MiB unless given.
    ///   - requestMutation: A last change to the request before the configured mutators run. It runs again for
    ///     each attempt.
    /// - Returns: The request, started: read its ``StreamedRequest/bytes``, ``StreamedRequest/lines`` or
    ///   ``StreamedRequest/values(of:decoder:)``, once.
    public func streamRequest(
        _ method: RequestMethod = .get,
        headers: [String: String] = [:],
        bufferSize: Int = StreamedRequest.defaultBufferSize,
        maximumLineLength: Int = StreamedRequest.defaultMaximumLineLength,
        requestMutation: @escaping RequestMutation = { _ in }
    ) -> StreamedRequest {
        let requestMutation = Self.setting(headers, then: requestMutation)
        let stream = ChunkStream(capacity: bufferSize, now: core.now)
        var request: Request
        if let invalidURLSource {
            request = Resource.failedRequest(
                returning: RequestError(
                    userMessage: invalidURLReason.userMessage(source: invalidURLSource),
                    cause: RequestError.Cause.InvalidURL(urlSource: invalidURLSource),
                    timestamp: core.now()))
        } else {
            let delegate = NetworkRequest(resource: self, method: method, destination: .chunks(stream)) {
                [unowned self] in
                buildURLRequest(method, body: nil, requestMutation: requestMutation)
            }
            request = Request(delegate: delegate, now: core.now)
            for decorator in configuration(for: delegate.effectiveMethod).requestDecorators {
                request = decorator(self, request)
            }
            trackRequest(request)
            request.start()
        }
        request.onCompletion { stream.complete(with: $0.response) }
        return StreamedRequest(request: request, stream: stream, maximumLineLength: maximumLineLength, now: core.now)
    }
}
