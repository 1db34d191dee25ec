import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Resource {
    /// Downloads this resource's body into the file at `destination`, streaming it to disk instead of memory
    /// (rule X2).
    ///
    /// The request is a GET built like any other of this resource (configured headers, mutators, the
    /// authenticator's credential) and goes through its decorators, so hooks, progress, ``Configuration/retryPolicy``
    /// and the authenticator's renewal on a 401 all work as usual. ``Configuration/maximumResponseSize`` does not
    /// apply: the body never sits in memory.
    ///
    /// The body is written to a temporary file in `destination`'s folder that only the app's user can read (0600),
    /// and moved into place when complete, replacing any file there: the destination holds the whole new file or
    /// what it held before, never part of one. A failure (a transport error, an HTTP error status, a full disk) or a
    /// cancellation removes the temporary file. The folder must exist.
    ///
    /// On success the entity's ``Entity/content`` is the destination's file `URL`, with the response's headers and
    /// content type. Pass the request to ``load(using:)`` to make the resource's data point at the file:
    ///
    /// ```swift
    /// let file = documents.appendingPathComponent("report.pdf")
    /// let report = service.resource("/reports/2024.pdf")
    /// report.load(using: report.download(to: file))
    ///     .onProgress { progressBar.value = $0 }
    /// // later: report.latestData?.content as? URL == file
    /// ```
    ///
    /// - Parameters:
    ///   - destination: A file URL, in a folder that exists and that the app can write to.
    ///   - headers: Headers of this download only, set after the configured ones, as for any request.
    ///   - requestMutation: A last change to the request before the configured mutators run. It runs again for
    ///     each attempt.
    /// - Returns: The request, started.
    @discardableResult
    public func download(
        to destination: URL, headers: [String: String] = [:], requestMutation: @escaping RequestMutation = { _ in }
    ) -> Request {
        let requestMutation = Self.setting(headers, then: requestMutation)
        if let invalidURLSource {
            return Resource.failedRequest(
                returning: RequestError(
                    userMessage: invalidURLReason.userMessage(source: invalidURLSource),
                    cause: RequestError.Cause.InvalidURL(urlSource: invalidURLSource),
                    timestamp: core.now()))
        }
        let delegate = NetworkRequest(resource: self, method: .get, destination: .file(destination)) { [unowned self] in
            buildURLRequest(.get, body: nil, requestMutation: requestMutation)
        }
        var request = Request(delegate: delegate, now: core.now)
        for decorator in configuration(for: .get).requestDecorators {
            request = decorator(self, request)
        }
        trackRequest(request)
        return request.start()
    }
}
