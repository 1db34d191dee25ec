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
