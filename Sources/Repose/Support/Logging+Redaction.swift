extension ReposeLog {
    /// What replaces a secret (a header value, a URL's password, a parameter's value) in the text Repose writes.
    static let redactedValue = "<redacted>"

    /// Which header and parameter names carry secrets: their values are hidden wherever Repose writes text.
    ///
    /// A name is sensitive when it equals one of ``exactNames`` or contains one of ``fragments``. Both comparisons
    /// ignore letter case and the separators `-`, `_`, `.` and spaces, so the fragment `api-key` also catches
    /// `X-API-Key`, `api_key` and `apikey`. URL query and fragment parameters are judged by their percent-decoded
    /// names, by the same rule as headers.
    ///
    /// The fragments are deliberately broad: `tokens_per_page` contains `token`, so its value is hidden too. A
    /// page size missing from a log line costs less than a credential written to one.
    ///
    /// ```swift
    /// ReposeLog.sensitiveNames.exactNames.insert("X-Session")
    /// ReposeLog.sensitiveNames.fragments.insert("signature")  // X-Amz-Signature=…
    /// ```
    public struct SensitiveNames: Sendable, Hashable {
        /// Names that are sensitive as a whole, such as `Cookie`; `Cookie-Policy` is not.
        public var exactNames: Set<String> {
            didSet { normalizedExactNames = Set(exactNames.map(Self.normalized)) }
        }
        /// Parts that make any name containing them sensitive, such as `token` in `X-Auth-Token`.
        public var fragments: Set<String> {
            didSet { normalizedFragments = Set(fragments.map(Self.normalized)).subtracting([""]) }
        }
        private var normalizedExactNames: Set<String>
        private var normalizedFragments: Set<String>

        /// Creates a set of names.
        ///
        /// - Parameters:
        ///   - exactNames: Names that are sensitive as a whole.
        ///   - fragments: Parts that make any name containing them sensitive.
        public init(exactNames: Set<String>, fragments: Set<String>) {
            self.exactNames = exactNames
            self.fragments = fragments
            normalizedExactNames = Set(exactNames.map(Self.normalized))
            normalizedFragments = Set(fragments.map(Self.normalized)).subtracting([""])
        }

        /// The default: `Authorization`, `Proxy-Authorization`, `Cookie` and `Set-Cookie`, and any name that
        /// contains `token`, `secret`, `api-key` or `password`.
        public static let standard = SensitiveNames(
            exactNames: ["Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie"],
            fragments: ["token", "secret", "api-key", "password"])

        /// Whether the value of a header or parameter called `name` must be hidden.
        public func contains(_ name: String) -> Bool {
            let name = Self.normalized(name)
            guard !name.isEmpty else { return false }
            return normalizedExactNames.contains(name) || normalizedFragments.contains { name.contains($0) }
        }

        private static func normalized(_ name: String) -> String {
            String(name.lowercased().unicodeScalars.filter { !separators.contains($0) })
        }

        private static let separators: Set<Unicode.Scalar> = ["-", "_", ".", " ", "\t"]
    }

    /// Whether `name` is a header or parameter whose value must not appear in text Repose writes.
    static func isSensitive(_ name: String) -> Bool {
        sensitiveNames.contains(name)
    }

    /// The same headers with the values of sensitive ones (see ``sensitiveNames``) replaced by `<redacted>`.
    /// Header names are matched in any letter case and kept as they are.
    ///
    /// It always redacts, whatever ``redactsSecrets`` says; use it when you log headers yourself.
    ///
    /// - Parameter headers: Request or response headers.
    /// - Returns: The headers with sensitive values hidden.
    public static func redactingHeaders(_ headers: [String: String]) -> [String: String] {
        let names = sensitiveNames
        var result = headers
        for name in headers.keys where names.contains(name) {
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
    ///   - redacting: Whether to hide sensitive values; `nil` (the default) follows ``redactsSecrets``.
    /// - Returns: One line of text.
    public static func describe(headers: [String: String], redacting: Bool? = nil) -> String {
        let names: SensitiveNames? = redacting ?? redactsSecrets ? sensitiveNames : nil
        let fields = headers.sorted { ($0.key.lowercased(), $0.key) < ($1.key.lowercased(), $1.key) }
            .map { name, value in
                let shown = names?.contains(name) == true ? redactedValue : value.debugDescription
                return "\(name): \(shown)"
            }
        return "[" + fields.joined(separator: ", ") + "]"
    }
}
