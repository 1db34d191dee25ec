import Foundation
import Repose

/// Which requests a stub answers: a method and a URL, and optionally headers and a body.
///
/// ```swift
/// // An exact URL (the whole text, query included) and a method.
/// StubMatcher(.get, "https://api.example.com/users/1")
/// // Any method, and any URL a predicate accepts.
/// StubMatcher(nil, where: { $0.path.hasPrefix("/users/") })
/// // Only POSTs that carry this header and this JSON body (compared as JSON, whatever the key order).
/// StubMatcher(.post, "https://api.example.com/users")
///     .header("Authorization", "Bearer abc")
///     .body(json: ["name": "Ada"])
/// ```
///
/// Pass a matcher to ``StubNetworkingProvider/stub(_:_:)``; the shorter `stub(.get, "https://…", …)` forms build
/// one for you.
public struct StubMatcher: Sendable {
    private let method: RequestMethod?
    private let urlMatches: @Sendable (RecordedRequest) -> Bool
    private var conditions: [@Sendable (RecordedRequest) -> Bool] = []
    private let urlDescription: String
    private var conditionDescriptions: [String] = []

    /// Matches requests with `method` (`nil` for any method) sent to exactly `url`.
    ///
    /// The comparison is with the request's whole URL as text, query and all, so parameter order matters.
    public init(_ method: RequestMethod?, _ url: String) {
        self.method = method
        self.urlMatches = { $0.url == url }
        self.urlDescription = url
    }

    /// Matches requests with `method` (`nil` for any method) whose URL `urlMatches` accepts.
    ///
    /// - Parameters:
    ///   - method: The method to match; `nil` for any.
    ///   - label: How failure messages name this matcher.
    ///   - urlMatches: Decides whether a URL matches. It may run on any thread.
    public init(
        _ method: RequestMethod?, label: String = "<URL predicate>", where urlMatches: @escaping @Sendable (URL) -> Bool
    ) {
        self.method = method
        self.urlMatches = { request in request.parsedURL.map(urlMatches) ?? false }
        self.urlDescription = label
    }

    /// This matcher, also requiring a header `name` (letter case ignored) with exactly `value`.
    public func header(_ name: String, _ value: String) -> StubMatcher {
        let shown = ReposeLog.sensitiveNames.contains(name) ? "<redacted>" : value
        return adding("\(name): \(shown)") { $0.header(name) == value }
    }

    /// This matcher, also requiring exactly `body`.
    public func body(_ body: Data) -> StubMatcher {
        adding("body of \(body.count) bytes") { ($0.body ?? Data()) == body }
    }

    /// This matcher, also requiring a body that is `text` in UTF-8.
    public func body(text: String) -> StubMatcher {
        adding("body \"\(text)\"") { $0.text == text }
    }

    /// This matcher, also requiring a body that is the JSON object `json`, whatever the key order or spacing.
    public func body(json: [String: Any]) -> StubMatcher {
        matchingJSON(json)
    }

    /// This matcher, also requiring a body that is the JSON array `json`, whatever the key order or spacing.
    public func body(json: [Any]) -> StubMatcher {
        matchingJSON(json)
    }

    /// This matcher, also requiring a body that `bodyMatches` accepts (an empty `Data` when there is no body).
    public func body(where bodyMatches: @escaping @Sendable (Data) -> Bool) -> StubMatcher {
        adding("body matching a predicate") { bodyMatches($0.body ?? Data()) }
    }

    /// Whether `request` satisfies everything this matcher requires.
    public func matches(_ request: RecordedRequest) -> Bool {
        if let method, request.httpMethod != method.rawValue { return false }
        return urlMatches(request) && conditions.allSatisfy { $0(request) }
    }

    private func adding(
        _ description: String, _ condition: @escaping @Sendable (RecordedRequest) -> Bool
    )
        -> StubMatcher
    {
        var matcher = self
        matcher.conditions.append(condition)
        matcher.conditionDescriptions.append(description)
        return matcher
    }

    private func matchingJSON(_ json: Any) -> StubMatcher {
        guard let expected = Self.canonicalJSON(json) else {
            TestFailure.record("StubMatcher.body(json:) was given something JSON cannot hold: \(json)")
            return adding("an impossible JSON body") { _ in false }
        }
        let text = String(decoding: expected, as: UTF8.self)
        return adding("JSON body \(text)") { request in
            guard let body = request.body, let parsed = try? JSONSerialization.jsonObject(with: body) else {
                return false
            }
            return Self.canonicalJSON(parsed) == expected
        }
    }

    /// JSON text with sorted keys, so that equal values give equal bytes.
    private static func canonicalJSON(_ object: Any) -> Data? {
        guard JSONSerialization.isValidJSONObject(object) else { return nil }
        return try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }
}

extension StubMatcher: CustomStringConvertible {
    /// The method, the URL and any further conditions, such as `POST https://api.example.com/users (body "x")`.
    /// Secrets in the URL and the values of sensitive headers are hidden, as in Repose's log lines.
    public var description: String {
        let head = "\(method?.rawValue ?? "any method") \(ReposeLog.redactingURLs(in: urlDescription))"
        if conditionDescriptions.isEmpty { return head }
        return "\(head) (\(conditionDescriptions.joined(separator: ", ")))"
    }
}
