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

// How Repose's values describe themselves. Every description that can show a URL or headers shows them through
// the redacting formatters (`ReposeLog.describe(url:)`, `ReposeLog.describe(headers:)`), so printing a value
// never prints a credential.

extension Resource: CustomStringConvertible {
    /// `Resource(https://api.example.com/users/42)`, with the URL's secrets hidden (see
    /// ``ReposeLog/describe(url:redacting:)``).
    public nonisolated var description: String { "Resource(\(ReposeLog.describe(url: url)))" }
}

extension Entity: CustomStringConvertible {
    /// The content type, the content's Swift type and the headers, with sensitive header values hidden:
    /// `Entity(text/plain, String, [content-type: "text/plain", set-cookie: <redacted>])`.
    public var description: String {
        "Entity(\(contentType), \(type(of: content as Any)), \(ReposeLog.describe(headers: headers)))"
    }
}

extension Resource {
    /// The resource's URL as log lines show it.
    nonisolated var logName: String { ReposeLog.describe(url: url) }
}
