import Foundation

// Redaction: the one place that decides which parts of a header set, a URL or a text are secrets. Log lines,
// descriptions, error messages, the inspector, ReposeTesting's texts, the outbox's files and redirects all use it.

extension ReposeLog {
    /// Which header and URL parameter names carry secrets; extend it for an API that sends credentials under names
    /// of its own:
    ///
    /// ```swift
    /// ReposeLog.sensitiveNames.exactNames.insert("X-Session")
    /// ReposeLog.sensitiveNames.fragments.insert("signature")  // X-Amz-Signature=…
    /// ```
    public static var sensitiveNames: SensitiveNames {
        get { settings[\.sensitiveNames] }
        set { settings[\.sensitiveNames] = newValue }
    }

    /// Header and parameter names whose values are hidden wherever Repose writes text.
    ///
    /// A name is sensitive when it equals one of ``exactNames`` or contains one of ``fragments``, ignoring letter
    /// case and the separators `-`, `_`, `.` and spaces: `api-key` also catches `X-API-Key` and `apikey`. URL
    /// parameters are judged by their percent-decoded names. By default: `Authorization`, `Proxy-Authorization`,
    /// `Cookie` and `Set-Cookie`, and any name containing `token`, `secret`, `api-key` or `password` (so
    /// `tokens_per_page` too: a page size missing from a log line costs less than a leaked credential).
    public struct SensitiveNames: Sendable, Hashable {
        /// Names that are sensitive as a whole, such as `Cookie`; `Cookie-Policy` is not.
        public var exactNames: Set<String> { didSet { normalizedExactNames = Self.normalized(exactNames) } }
        /// Parts that make any name containing them sensitive, such as `token` in `X-Auth-Token`.
        public var fragments: Set<String> { didSet { normalizedFragments = Self.normalized(fragments) } }
        private var normalizedExactNames: Set<String>
        private var normalizedFragments: Set<String>

        init(exactNames: Set<String>, fragments: Set<String>) {
            (self.exactNames, self.fragments) = (exactNames, fragments)
            (normalizedExactNames, normalizedFragments) = (Self.normalized(exactNames), Self.normalized(fragments))
        }

        static let standard = SensitiveNames(
            exactNames: ["Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie"],
            fragments: ["token", "secret", "api-key", "password"])

        /// Whether the value of a header or parameter called `name` must be hidden.
        package func contains(_ name: String) -> Bool {
            let name = Self.normalized(name)
            return !name.isEmpty
                && (normalizedExactNames.contains(name) || normalizedFragments.contains { name.contains($0) })
        }

        private static func normalized(_ names: Set<String>) -> Set<String> {
            Set(names.map(normalized)).subtracting([""])
        }

        private static func normalized(_ name: String) -> String {
            String(name.lowercased().unicodeScalars.filter { !"-_. \t".unicodeScalars.contains($0) })
        }
    }

    static let redactedValue = "<redacted>"

    /// The same headers with the values of sensitive ones (see ``sensitiveNames``) replaced by `<redacted>`, for
    /// when you log headers yourself. Names are matched in any letter case and kept as they are.
    public static func redactingHeaders(_ headers: [String: String]) -> [String: String] {
        let names = sensitiveNames
        return headers.reduce(into: headers) { result, header in
            if names.contains(header.key) { result[header.key] = redactedValue }
        }
    }

    /// The text Repose writes for a URL: the URL as written, with its user-info's password (or a user name given
    /// alone, a common way to pass a token) and the values of sensitive query and fragment parameters (see
    /// ``sensitiveNames``) replaced by `<redacted>`. The path is kept: keep secrets out of paths.
    ///
    /// `https://me:pa55@api.example.com/users?access_token=abc&page=2` becomes
    /// `https://me:<redacted>@api.example.com/users?access_token=<redacted>&page=2`.
    public static func describe(url: URL) -> String {
        redactingURL(url.absoluteString[...], names: sensitiveNames)
    }

    /// `[Accept: "text/plain", Authorization: <redacted>]`, sorted by name; values are quoted and escaped, so a
    /// value cannot break the line or pass for another header.
    static func describe(headers: [String: String]) -> String {
        let names = sensitiveNames
        let fields = headers.sorted { ($0.key.lowercased(), $0.key) < ($1.key.lowercased(), $1.key) }
            .map { name, value in "\(name): " + (names.contains(name) ? redactedValue : value.debugDescription) }
        return "[" + fields.joined(separator: ", ") + "]"
    }

    /// The same text with every URL in it (`scheme://…`, up to a space, a quote or a bracket) shown as
    /// ``describe(url:)`` shows it, for text that may quote a URL, such as an error's description.
    package static func redactingURLs(in text: String) -> String {
        guard text.contains("://") else { return text }
        let names = sensitiveNames
        var (result, rest) = ("", text[...])
        while let separator = rest.range(of: "://") {
            let isScheme = { (c: Character) in c.isASCII && (c.isLetter || c.isNumber || "+-.".contains(c)) }
            let start = rest[..<separator.lowerBound].reversed().firstIndex { !isScheme($0) }?.base ?? rest.startIndex
            let end = rest[separator.upperBound...].firstIndex { $0.isWhitespace || "\"'<>{}|\\^`".contains($0) }
            result += rest[..<start] + redactingURL(rest[start..<(end ?? rest.endIndex)], names: names)
            rest = rest[(end ?? rest.endIndex)...]
        }
        return result + rest
    }

    /// Redacts one URL's text: the user-info, then the query, then the fragment (OAuth's implicit flow returns
    /// `#access_token=…`).
    private static func redactingURL(_ url: Substring, names: SensitiveNames) -> String {
        var (result, rest) = ("", url)
        if let separator = rest.range(of: "://") {
            let authorityEnd = rest[separator.upperBound...].firstIndex { "/?#".contains($0) } ?? rest.endIndex
            let authority = rest[separator.upperBound..<authorityEnd]
            result += rest[..<separator.upperBound]
            if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
                let password = authority[authority.index(after: colon)..<at]
                result += authority[...colon] + (password.isEmpty ? "" : redactedValue) + authority[at...]
            } else if let at = authority.lastIndex(of: "@") {
                result += (at == authority.startIndex ? "" : redactedValue) + authority[at...]
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
        return rest.first == "#" ? result + "#" + redactingParameters(rest.dropFirst(), names: names) : result
    }

    /// `a=1&token=abc` → `a=1&token=<redacted>`; names are judged percent-decoded, values are dropped whole.
    private static func redactingParameters(_ parameters: Substring, names: SensitiveNames) -> String {
        parameters.split(separator: "&", omittingEmptySubsequences: false).map { parameter in
            guard let equals = parameter.firstIndex(of: "="), parameter.index(after: equals) < parameter.endIndex
            else { return String(parameter) }
            let rawName = parameter[..<equals].replacingOccurrences(of: "+", with: " ")
            return names.contains(rawName.removingPercentEncoding ?? rawName)
                ? parameter[...equals] + redactedValue
                : String(parameter)
        }
        .joined(separator: "&")
    }
}
