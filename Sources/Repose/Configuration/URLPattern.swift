import Foundation

/// Decides which resource URLs a configuration entry applies to (rules D18–D23). Patterns are compiled once, when
/// the configuration is added, and matching never compiles anything.
///
/// Glob patterns (`init(glob:baseURL:)`):
/// - Relative to the base URL, with or without a leading slash, unless they start with a scheme (`https://…`,
///   or any text without a `/` followed by `://`). Without a base URL they are matched as absolute text.
/// - Matched against the whole URL, from its start to its end, without its query string and fragment.
/// - `*` matches any run of characters other than `/`, possibly empty (also in the host and port:
///   `https://*:8080/**`); `**` matches anything, across segments; `/**/` also matches a single `/`, so
///   `/users/**/posts` matches `/users/posts`; `?` matches exactly one character other than `/`.
/// - Every other character is literal, regular-expression metacharacters included (`.`, `+`, `(`, `$`, …).
///   Patterns match the URL's percent-encoded text: write `%20`, not a space.
///
/// Regular expressions (`init(regex:)`) match any part of the full absolute URL, query included, with the
/// expression's own options.
struct URLPattern: CustomStringConvertible {
    private enum Matcher {
        case glob([GlobToken])
        case regex(NSRegularExpression)
        case predicate((URL) -> Bool)
        case exact(String)
    }

    private let matcher: Matcher
    /// What the pattern was made from, for logs.
    let description: String

    /// A glob pattern (rules D18–D22); see the type's documentation for the syntax.
    ///
    /// - Parameters:
    ///   - glob: The pattern, e.g. `/users/*`, `**/posts/?`, `https://*.example.com/**`.
    ///   - baseURL: The service's base URL. A trailing slash is added to its path if missing (as the service does)
    ///     and its query string is dropped.
    init(glob: String, baseURL: URL?) {
        let absolute = Self.absolutePattern(glob, baseURL: baseURL)
        matcher = .glob(GlobToken.compile(absolute))
        description = "URLPattern(glob: \(absolute))"
    }

    /// A regular expression that matches any part of the full absolute URL (rule D23).
    init(regex: NSRegularExpression) {
        matcher = .regex(regex)
        description = "URLPattern(regex: \(regex.pattern))"
    }

    /// An arbitrary test.
    init(predicate: @escaping (URL) -> Bool) {
        matcher = .predicate(predicate)
        description = "URLPattern(predicate)"
    }

    /// Exactly one URL, query string included.
    init(exactURL: URL) {
        matcher = .exact(exactURL.absoluteString)
        description = "URLPattern(exactURL: \(exactURL.absoluteString))"
    }

    /// Whether the pattern matches `url`.
    func matches(_ url: URL) -> Bool {
        switch matcher {
        case .glob(let tokens):
            var text = Array(url.absoluteString.utf8)
            if let end = text.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
                text.removeSubrange(end...)
            }
            return GlobToken.matches(tokens, text)
        case .regex(let regex):
            let text = url.absoluteString
            return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        case .predicate(let predicate):
            return predicate(url)
        case .exact(let text):
            return url.absoluteString == text
        }
    }

    /// The pattern as absolute text: relative patterns are appended to the base URL's text.
    static func absolutePattern(_ pattern: String, baseURL: URL?) -> String {
        guard let baseURL, !hasScheme(pattern) else { return pattern }
        var base = withoutQueryAndFragment(baseURL.absoluteString)
        if !base.hasSuffix("/") { base += "/" }
        return base + (pattern.hasPrefix("/") ? pattern.dropFirst() : Substring(pattern))
    }

    private static func hasScheme(_ pattern: String) -> Bool {
        guard let separator = pattern.range(of: "://") else { return false }
        let scheme = pattern[..<separator.lowerBound]
        return !scheme.isEmpty && !scheme.contains("/")
    }

    private static func withoutQueryAndFragment(_ text: String) -> String {
        guard let end = text.utf8.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) else {
            return text
        }
        return String(text[..<end])
    }
}
