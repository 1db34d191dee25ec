import Foundation
import Repose

/// What a stub answers: an HTTP response (any status, headers and body) or a transport error.
///
/// ```swift
/// network.stub(.get, "https://api.example.com/users/1", .json(["name": "Ada"]))
/// network.stub(.get, "https://api.example.com/avatar", .data(png, contentType: "image/png"))
/// network.stub(.get, "https://api.example.com/offline", .error(URLError(.notConnectedToInternet)))
/// network.stub(.delete, "https://api.example.com/users/1", .status(204))
/// ```
///
/// Text and JSON get a `Content-Type` unless `headers` names one (in any letter case).
public struct StubResponse: Sendable {
    /// The response or the error that a request matched by the stub completes with.
    public let result: Result<NetworkResponse, any Error>

    /// A response that answers with `response` as it is.
    public init(_ response: NetworkResponse) {
        result = .success(response)
    }

    /// A response that completes the request with a transport error, such as `URLError(.timedOut)`.
    ///
    /// Use it for failures that happen before any HTTP status exists. An HTTP error status is a response:
    /// use ``status(_:headers:)`` or give any other response a `status`.
    public static func error(_ error: any Error) -> StubResponse {
        StubResponse(result: .failure(error))
    }

    /// A response with the status and headers given and no body.
    ///
    /// ```swift
    /// network.stub(.delete, "https://api.example.com/users/1", .status(204))
    /// ```
    public static func status(_ status: Int, headers: [String: String] = [:]) -> StubResponse {
        StubResponse(NetworkResponse(statusCode: status, headers: headers))
    }

    /// A response whose body is `body` as it is.
    ///
    /// - Parameters:
    ///   - body: The body bytes.
    ///   - status: The HTTP status; 200 unless given.
    ///   - contentType: The `Content-Type` header, if any.
    ///   - headers: More response headers.
    public static func data(
        _ body: Data, status: Int = 200, contentType: String? = nil, headers: [String: String] = [:]
    ) -> StubResponse {
        StubResponse(NetworkResponse(statusCode: status, headers: headers.adding(contentType), body: body))
    }

    /// A response whose body is `text` in UTF-8, with `Content-Type: text/plain; charset=utf-8`.
    ///
    /// ```swift
    /// network.stub(.post, "https://api.example.com/users", .text("created", status: 201))
    /// ```
    public static func text(_ text: String, status: Int = 200, headers: [String: String] = [:]) -> StubResponse {
        data(Data(text.utf8), status: status, contentType: "text/plain; charset=utf-8", headers: headers)
    }

    /// A response whose body is a JSON object, with `Content-Type: application/json`.
    ///
    /// Keys are written in sorted order, so the body is the same on every run. A value that JSON cannot hold
    /// (a `Date`, say) records a test failure, and the request then completes with a ``StubError``.
    ///
    /// ```swift
    /// network.stub(.get, "https://api.example.com/users/1", .json(["name": "Ada", "languages": ["en", "fr"]]))
    /// ```
    public static func json(
        _ object: [String: Any], status: Int = 200, headers: [String: String] = [:]
    )
        -> StubResponse
    {
        serializing(object, status: status, headers: headers)
    }

    /// A response whose body is a JSON array, with `Content-Type: application/json`.
    ///
    /// ```swift
    /// network.stub(.get, "https://api.example.com/users", .json([["id": 1], ["id": 2]]))
    /// ```
    public static func json(_ array: [Any], status: Int = 200, headers: [String: String] = [:]) -> StubResponse {
        serializing(array, status: status, headers: headers)
    }

    /// A response whose body is `value` encoded as JSON, with `Content-Type: application/json`.
    ///
    /// ```swift
    /// struct User: Encodable { var name: String }
    /// network.stub(.get, "https://api.example.com/users/1", .json(encoding: User(name: "Ada")))
    /// ```
    ///
    /// A value that fails to encode records a test failure, and the request completes with the encoding error.
    public static func json(
        encoding value: some Encodable, encoder: JSONEncoder = JSONEncoder(), status: Int = 200,
        headers: [String: String] = [:]
    ) -> StubResponse {
        do {
            let body = try encoder.encode(value)
            return data(body, status: status, contentType: "application/json", headers: headers)
        } catch {
            TestFailure.record("StubResponse.json(encoding:) could not encode \(type(of: value)): \(error)")
            return .error(error)
        }
    }

    private init(result: Result<NetworkResponse, any Error>) {
        self.result = result
    }

    private static func serializing(_ object: Any, status: Int, headers: [String: String]) -> StubResponse {
        guard JSONSerialization.isValidJSONObject(object),
            let body = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        else {
            let message = "StubResponse.json was given something JSON cannot hold: \(object)"
            TestFailure.record(message)
            return .error(StubError(reason: .invalidStub, message: message))
        }
        return data(body, status: status, contentType: "application/json", headers: headers)
    }
}

extension [String: String] {
    /// These headers plus `Content-Type: contentType`, unless they already name a content type.
    fileprivate func adding(_ contentType: String?) -> [String: String] {
        guard let contentType, !keys.contains(where: { $0.lowercased() == "content-type" }) else { return self }
        var headers = self
        headers["Content-Type"] = contentType
        return headers
    }
}
