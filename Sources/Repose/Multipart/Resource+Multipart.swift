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
    /// - Parameters:
    ///   - method: The HTTP method, usually `.post` or `.put`.
    ///   - parts: The form's parts, in the order they are sent.
    ///   - headers: Headers of this request only, set after the configured ones and the body's `Content-Type`.
    ///   - requestMutation: A last change to this request before the configured mutators run.
    @discardableResult
    public func request(
        _ method: RequestMethod,
        multipart parts: [MultipartPart],
        headers: [String: String] = [:],
        requestMutation: @escaping RequestMutation = { _ in }
    ) -> Request {
        request(method, requestMutation: Self.setting(headers, then: requestMutation)) {
            let body = try MultipartBody(parts: parts)
            return { urlRequest in
                urlRequest.httpBodyStream = MultipartBodyStream(body: body)  // new for each attempt
                urlRequest.setValue(body.contentType, forHTTPHeaderField: "Content-Type")
                #if !canImport(FoundationNetworking)
                urlRequest.setValue(String(body.length), forHTTPHeaderField: "Content-Length")
                #endif
            }
        }
    }
}
