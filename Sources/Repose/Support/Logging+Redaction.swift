extension ReposeLog {
    /// What replaces the value of a sensitive header in log lines.
    static let redactedValue = "<redacted>"

    /// Headers whose values carry credentials, lowercased.
    static let sensitiveHeaderNames: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    /// Whether `name` is a header whose value must not appear in logs; matched case-insensitively.
    static func isSensitiveHeader(_ name: String) -> Bool {
        sensitiveHeaderNames.contains(name.trimmingWhitespace().lowercased())
    }

    /// The same headers with the values of `Authorization`, `Proxy-Authorization`, `Cookie` and `Set-Cookie`
    /// replaced by `<redacted>`. Header names are matched in any letter case and kept as they are.
    ///
    /// It always redacts, whatever ``redactsSensitiveHeaders`` says; use it when you log headers yourself.
    ///
    /// - Parameter headers: Request or response headers.
    /// - Returns: The headers with sensitive values hidden.
    public static func redactingHeaders(_ headers: [String: String]) -> [String: String] {
        var result = headers
        for name in headers.keys where isSensitiveHeader(name) {
            result[name] = redactedValue
        }
        return result
    }

    /// Formats headers for a log line: `[Accept: "text/plain", Authorization: <redacted>]`, sorted by name.
    ///
    /// Values are quoted and escaped, so a value cannot break the line or pass for another header.
    ///
    /// - Parameters:
    ///   - headers: The headers to show.
    ///   - redacting: Whether to hide sensitive values; `nil` (the default) follows ``redactsSensitiveHeaders``.
    /// - Returns: One line of text.
    public static func describe(headers: [String: String], redacting: Bool? = nil) -> String {
        let redacts = redacting ?? redactsSensitiveHeaders
        let fields = headers.sorted { ($0.key.lowercased(), $0.key) < ($1.key.lowercased(), $1.key) }
            .map { name, value in
                let shown = redacts && isSensitiveHeader(name) ? redactedValue : value.debugDescription
                return "\(name): \(shown)"
            }
        return "[" + fields.joined(separator: ", ") + "]"
    }
}

extension String {
    fileprivate func trimmingWhitespace() -> Substring {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map(index(after:)) ?? start
        return self[start..<end]
    }
}
