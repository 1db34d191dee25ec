import Foundation

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

extension ReposeLog {
    /// The text Repose writes for a URL: the URL as it was written, with the password of its user-info and the
    /// values of sensitive query and fragment parameters (see ``sensitiveNames``) replaced by `<redacted>`.
    ///
    /// `https://me:pa55@api.example.com/users?access_token=abc&page=2` becomes
    /// `https://me:<redacted>@api.example.com/users?access_token=<redacted>&page=2`. Every log line, description
    /// and error message Repose writes shows URLs through this function.
    ///
    /// A user name alone is hidden too (`https://TOKEN@host` is a common way to pass a token); a path is kept: only
    /// the places where URLs conventionally carry credentials are rewritten.
    ///
    /// - Parameters:
    ///   - url: The URL to show.
    ///   - redacting: Whether to hide secrets; `nil` (the default) follows ``redactsSecrets``.
    /// - Returns: The URL's text.
    public static func describe(url: URL, redacting: Bool? = nil) -> String {
        let text = url.absoluteString
        guard redacting ?? redactsSecrets else { return text }
        return redactingURL(text[...], names: sensitiveNames)
    }

    /// The same text with every URL in it (`scheme://…`, up to a space, a quote or a bracket) shown as
    /// ``describe(url:redacting:)`` shows it; the rest of the text is kept.
    ///
    /// Use it for text that may quote a URL, such as an error's description.
    ///
    /// - Parameters:
    ///   - text: Any text.
    ///   - redacting: Whether to hide secrets; `nil` (the default) follows ``redactsSecrets``.
    /// - Returns: The text with the URLs' secrets hidden.
    public static func redactingURLs(in text: String, redacting: Bool? = nil) -> String {
        guard redacting ?? redactsSecrets, text.contains("://") else { return text }
        let names = sensitiveNames
        var result = ""
        var rest = text[...]
        while let separator = rest.range(of: "://") {
            let start =
                rest[..<separator.lowerBound].reversed().firstIndex { !isSchemeCharacter($0) }?.base
                ?? rest.startIndex
            let end = rest[separator.upperBound...].firstIndex(where: endsURL) ?? rest.endIndex
            result += rest[..<start]
            result += redactingURL(rest[start..<end], names: names)
            rest = rest[end...]
        }
        return result + rest
    }

    /// Redacts one URL's text: the user-info, then the query, then the fragment.
    private static func redactingURL(_ url: Substring, names: SensitiveNames) -> String {
        var result = ""
        var rest = url
        if let separator = rest.range(of: "://") {
            let authorityEnd = rest[separator.upperBound...].firstIndex { "/?#".contains($0) } ?? rest.endIndex
            let authority = rest[separator.upperBound..<authorityEnd]
            result += rest[..<separator.upperBound]
            if let at = authority.lastIndex(of: "@") {
                // `user:password@` keeps the user; a user alone is a token as often as a name, so it goes whole.
                if let colon = authority[..<at].firstIndex(of: ":") {
                    let password = authority[authority.index(after: colon)..<at]
                    result += authority[...colon] + (password.isEmpty ? "" : redactedValue) + authority[at...]
                } else {
                    result += (at == authority.startIndex ? "" : redactedValue) + authority[at...]
                }
            } else {
                result += authority
            }
            rest = rest[authorityEnd...]
        }
        let pathEnd = rest.firstIndex { $0 == "?" || $0 == "#" } ?? rest.endIndex
        result += rest[..<pathEnd]
        rest = rest[pathEnd...]
        if rest.first == "?" {
            let queryEnd = rest.firstIndex(of: "#") ?? rest.endIndex
            result += "?" + redactingParameters(rest.dropFirst()[..<queryEnd], names: names)
            rest = rest[queryEnd...]
        }
        if rest.first == "#" {
            // A fragment may carry parameters too: OAuth's implicit flow returns `#access_token=…`.
            result += "#" + redactingParameters(rest.dropFirst(), names: names)
        }
        return result
    }

    /// `a=1&token=abc` → `a=1&token=<redacted>`; names are judged percent-decoded, values are dropped whole.
    private static func redactingParameters(_ parameters: Substring, names: SensitiveNames) -> String {
        parameters.split(separator: "&", omittingEmptySubsequences: false).map { parameter in
            guard let equals = parameter.firstIndex(of: "="), parameter.index(after: equals) < parameter.endIndex
            else { return String(parameter) }
            let rawName = parameter[..<equals].replacingOccurrences(of: "+", with: " ")
            guard names.contains(rawName.removingPercentEncoding ?? rawName) else { return String(parameter) }
            return parameter[...equals] + redactedValue
        }
        .joined(separator: "&")
    }

    /// Letters, digits, `+`, `-` and `.`: what a URL scheme is made of.
    private static func isSchemeCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || "+-.".contains(character))
    }

    /// Characters a URL cannot contain unescaped, which therefore end one quoted in text.
    private static func endsURL(_ character: Character) -> Bool {
        character.isWhitespace || "\"'<>{}|\\^`".contains(character)
    }
}
