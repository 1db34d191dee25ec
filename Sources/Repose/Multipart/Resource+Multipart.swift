import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Resource {
    /// Sends a `multipart/form-data` body made of `parts`: text fields, bytes, and files streamed from disk.
    ///
    /// ```swift
    /// album.request(.post, multipart: [
    ///     .field("title", "Holiday"),
    ///     .file("photo", at: photoURL, contentType: "image/jpeg"),
    /// ])
    /// .onProgress { print("uploaded \(Int($0 * 100))%") }
    /// ```
    ///
    /// Lines end in CRLF, and the boundary is random and occurs in no part. A file part is read a chunk at a time
    /// as the request is sent, so uploading a large file does not hold it in memory, and upload progress is
    /// reported on the request. A missing file, or a content type spanning lines, gives a request that has already
    /// failed, and nothing is sent.
    ///
    /// Apple's URLSession sends the body with a `Content-Length`; swift-corelibs-foundation (Linux) sends every
    /// streamed body with `Transfer-Encoding: chunked`, which HTTP/1.1 servers accept.
    ///
    /// An optimistic change and the per-call options work as for the family's other bodies, with one exception: an
    /// upload never waits in the outbox, whatever the options or the configuration say. Its files may change or
    /// vanish before a later launch could send them, so it is sent at once and fails if the network does.
    ///
    /// - Parameters:
    ///   - method: The HTTP method, usually `.post` or `.put`.
    ///   - parts: The form's parts, in the order they are sent.
    ///   - change: An optimistic change to show while the upload runs; it ends as a JSON write's does.
    ///   - target: The resource that shows `change`; this one if `nil`.
    ///   - headers: Headers of this request only, set after the configured ones and the body's `Content-Type`.
    ///   - options: What to invalidate when the upload succeeds, instead of the configuration's choice.
    ///   - requestMutation: A last change to this request before the configured mutators run.
    @discardableResult
    public func request(
        _ method: RequestMethod,
        multipart parts: [MultipartPart],
        showing change: OptimisticChange? = nil,
        on target: Resource? = nil,
        headers: [String: String] = [:],
        options: RequestOptions = RequestOptions(),
        requestMutation: @escaping RequestMutation = { _ in }
    ) -> Request {
        let body: MultipartBody
        do {
            body = try MultipartBody(parts: parts)
        } catch {
            return failedEncoding(error)
        }
        let call = RequestCall(
            change: change, target: target, headers: headers, options: options, requestMutation: requestMutation)
        return sendAtOnce(
            method,
            body: { urlRequest in
                urlRequest.httpBodyStream = MultipartBodyStream(body: body)  // new for each attempt
                urlRequest.setValue(body.contentType, forHTTPHeaderField: "Content-Type")
                #if !canImport(FoundationNetworking)
                urlRequest.setValue(String(body.length), forHTTPHeaderField: "Content-Length")
                #endif
            }, call)
    }
}
