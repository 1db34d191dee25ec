import Foundation

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
