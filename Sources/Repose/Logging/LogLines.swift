import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// How requests, responses and their outcomes appear in log lines.

extension ResponseProcessor.Outcome {
    /// How a request ended, for `network`.
    var logSummary: String {
        switch self {
        case .notModified: "304 not modified"
        case .response(.success(let entity)): "succeeded, \(entity.contentType)"
        case .response(.failure(let error)) where error.isCancellation: "cancelled"
        case .response(.failure(let error)): "failed: " + ReposeLog.summary(of: error)
        }
    }
}

extension ReposeLog {
    /// `GET https://… [Accept: "application/json", Authorization: <redacted>]`, then `, body 42 bytes`.
    static func describe(_ request: URLRequest) -> String {
        let url = request.url.map { describe(url: $0) } ?? "(no URL)"
        let line = "\(request.httpMethod ?? "GET") \(url) " + describe(headers: request.allHTTPHeaderFields ?? [:])
        if let body = request.httpBody { return line + ", body \(body.count) bytes" }
        return request.httpBodyStream == nil ? line : line + ", streamed body"
    }

    /// `200, 1532 bytes [Content-Type: "application/json", Set-Cookie: <redacted>]`.
    static func describe(_ response: NetworkResponse) -> String {
        "\(response.statusCode), \(response.body.count) bytes " + describe(headers: response.headers)
    }

    /// An error as lines show it: its status and its message, with any URL in the message redacted.
    static func summary(of error: RequestError) -> String {
        (error.httpStatusCode.map { "\($0) " } ?? "") + redactingURLs(in: error.userMessage).debugDescription
    }

    /// `text/plain (String)`, or `error ` and the error's summary.
    static func summary(of response: Response) -> String {
        switch response {
        case .success(let entity): "\(entity.contentType) (\(type(of: entity.content)))"
        case .failure(let error): "error " + summary(of: error)
        }
    }
}

/// The lines about one response: its details (`networkDetails`), what each pipeline stage made of it (`pipeline`),
/// what went to the caches (`cache`). The response is processed on the provider's thread, where the starting task's
/// scoped settings cannot be seen, so they are read when the request starts and carried here. With all three
/// categories off, `init` returns `nil` after one gate check and the response pays nothing.
struct ResponseLog: Sendable {
    private let subject: String
    private let scope: ReposeLog.Scope

    /// The categories its lines go to: a response is logged only while one of them is on.
    static let categories: ReposeLog.Category = [.networkDetails, .pipeline, .cache]

    init(scope: ReposeLog.Scope, method: RequestMethod, url: URL) {
        (self.scope, subject) = (scope, "\(method.rawValue) \(ReposeLog.describe(url: url))")
    }

    private func log(_ category: ReposeLog.Category, _ message: @autoclosure () -> String) {
        if scope.enabled.contains(category) { scope.handler(category, message()) }
    }

    /// `GET https://… ← 200, 2 bytes [Content-Type: "text/plain"]`, or the transport error.
    func received(_ result: Result<NetworkResponse, any Error>) {
        switch result {
        case .success(let response): log(.networkDetails, "\(subject) ← " + ReposeLog.describe(response))
        case .failure(let error):
            log(.networkDetails, "\(subject) ← transport error: \(ReposeLog.redactingURLs(in: "\(error)"))")
        }
    }

    /// What a stage made of the response, and whether its output went to a cache.
    func stage(_ key: PipelineStageKey, ranTransformers: Bool, result: Response, cachedIn targets: [CacheTarget]) {
        if ranTransformers { log(.pipeline, "\(subject): \(key) → \(ReposeLog.summary(of: result))") }
        if case .success = result, targets.contains(where: { $0.stage == key }) {
            log(.cache, "\(subject): \(key) output written to the cache")
        }
    }
}
