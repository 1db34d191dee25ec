import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ReposeLog {
    /// Formats a request for a log line: method, URL, headers and body size.
    ///
    /// `GET https://api.example.com/users [Accept: "application/json", Authorization: <redacted>]`, followed by
    /// `, body 42 bytes` when there is a body. The URL is shown as ``describe(url:redacting:)`` shows it.
    ///
    /// - Parameters:
    ///   - request: The request to describe.
    ///   - redacting: Whether to hide sensitive header values and the URL's secrets; `nil` (the default) follows
    ///     ``redactsSecrets``.
    /// - Returns: One line of text.
    public static func describe(_ request: URLRequest, redacting: Bool? = nil) -> String {
        let method = request.httpMethod ?? "GET"
        let url = request.url.map { describe(url: $0, redacting: redacting) } ?? "(no URL)"
        var line = "\(method) \(url) " + describe(headers: request.allHTTPHeaderFields ?? [:], redacting: redacting)
        if let body = request.httpBody {
            line += ", body \(body.count) bytes"
        } else if request.httpBodyStream != nil {
            line += ", streamed body"
        }
        return line
    }

    /// Formats a response for a log line: status, body size and headers.
    ///
    /// `200, 1532 bytes [Content-Type: "application/json", Set-Cookie: <redacted>]`.
    ///
    /// - Parameters:
    ///   - response: The response to describe.
    ///   - redacting: Whether to hide sensitive header values; `nil` (the default) follows
    ///     ``redactsSecrets``.
    /// - Returns: One line of text.
    public static func describe(_ response: NetworkResponse, redacting: Bool? = nil) -> String {
        "\(response.statusCode), \(response.body.count) bytes "
            + describe(headers: response.headers, redacting: redacting)
    }
}
