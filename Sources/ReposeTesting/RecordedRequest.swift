import Foundation
import Repose

/// A request as a ``StubNetworkingProvider`` saw it: method, URL, headers and body.
///
/// Read them from ``StubNetworkingProvider/requests`` (every request) or ``StubRoute/requests`` (those one stub
/// answered), in the order they were sent:
///
/// ```swift
/// #expect(network.requests.map(\.url) == ["https://api.example.com/users/1"])
/// let post = try #require(network.requests.last)
/// #expect(post.method == .post)
/// #expect(post.header("content-type") == "application/json")
/// #expect(post.jsonDict["name"] as? String == "Ada")
/// ```
public struct RecordedRequest: Sendable {
    /// The HTTP method as sent, such as `"GET"`.
    public let httpMethod: String
    /// The URL as sent, as text (`URL.absoluteString`); empty when the request had none.
    public let url: String
    /// The request headers as sent. Look one up with ``header(_:)``, which ignores letter case.
    public let headers: [String: String]
    /// The request body; `nil` when there was none.
    public let body: Data?
    /// How long the request may wait for data before it times out, in seconds: `URLRequest`'s
    /// `timeoutInterval`, 60 unless the app set it.
    public let timeoutInterval: TimeInterval
    /// Whether the request had been cancelled when this copy was taken.
    public internal(set) var wasCancelled = false

    /// The parsed URL, for predicates.
    let parsedURL: URL?

    /// Creates a recorded request, for comparing with recorded ones or for testing matchers.
    public init(
        httpMethod: String = "GET", url: String, headers: [String: String] = [:], body: Data? = nil,
        timeoutInterval: TimeInterval = 60
    ) {
        self.httpMethod = httpMethod.uppercased()
        self.url = url
        self.headers = headers
        self.body = body
        self.timeoutInterval = timeoutInterval
        self.parsedURL = URL(string: url)
    }

    init(httpMethod: String, url: URL?, headers: [String: String], body: Data?, timeoutInterval: TimeInterval) {
        self.httpMethod = httpMethod.uppercased()
        self.url = url?.absoluteString ?? ""
        self.headers = headers
        self.body = body
        self.timeoutInterval = timeoutInterval
        self.parsedURL = url
    }

    /// The method as a Repose `RequestMethod`; `nil` for a method Repose does not define.
    public var method: RequestMethod? {
        RequestMethod(rawValue: httpMethod)
    }

    /// The value of the header called `name`, whatever its letter case; `nil` when it is absent.
    public func header(_ name: String) -> String? {
        if let exact = headers[name] { return exact }
        let lowered = name.lowercased()
        return headers.first { $0.key.lowercased() == lowered }?.value
    }

    /// The body as UTF-8 text; `nil` when there is no body or it is not UTF-8.
    public var text: String? {
        body.flatMap { String(data: $0, encoding: .utf8) }
    }

    /// The body parsed as a JSON object; empty when there is no body or it is not a JSON object.
    public var jsonDict: [String: Any] {
        (parsedJSON as? [String: Any]) ?? [:]
    }

    /// The body parsed as a JSON array; empty when there is no body or it is not a JSON array.
    public var jsonArray: [Any] {
        (parsedJSON as? [Any]) ?? []
    }

    private var parsedJSON: Any? {
        body.flatMap { try? JSONSerialization.jsonObject(with: $0, options: [.fragmentsAllowed]) }
    }
}

extension RecordedRequest: CustomStringConvertible {
    /// The method and the URL, such as `GET https://api.example.com/users/1`, with the URL's secrets hidden as
    /// Repose's log lines hide them (see `ReposeLog.describe(url:)`).
    public var description: String {
        "\(httpMethod) \(ReposeLog.redactingURLs(in: url))"
    }
}
