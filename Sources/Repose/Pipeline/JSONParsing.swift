import Foundation

/// Parses JSON response bodies into `[String: Any]` or `[Any]` (rules F7–F9).
///
/// Which responses are JSON is decided by `ContentTypeMatcher.json` (`*/json`, `*/*+json`); this type only
/// parses.
package enum JSONParsing {
    /// Parses a JSON body whose top level is an object or an array.
    ///
    /// On Linux, `FastJSONParser` is tried first and `JSONSerialization` parses whatever it gives up on, always
    /// with `.fragmentsAllowed`; then the top-level type is checked here: Foundation on Linux
    /// rejects bare scalars without that option while some Apple releases accept them, and this way both report
    /// the same typed cause.
    ///
    /// - Returns: a `[String: Any]` or an `[Any]`.
    /// - Throws: a `RequestError` with the message "Cannot parse server response" and, as its cause, either the
    ///   parser's own error (malformed or empty input; `NSCocoaErrorDomain` 3840) or
    ///   `JSONResponseIsNotDictionaryOrArray` for a top-level `17`, `"foo"` or `null`.
    package static func parse(_ data: Data) throws -> Any {
        #if canImport(FoundationNetworking)
        // corelibs' `JSONSerialization` is slow on small bodies; the fast parser builds the same values for plain
        // JSON and gives up on anything else, which then takes the path below.
        if let parsed = FastJSONParser.parse(data) { return parsed }
        #endif
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw RequestError.cannotParseResponse(cause: error)
        }
        if let dictionary = object as? [String: Any] { return dictionary }
        if let array = object as? [Any] { return array }
        throw RequestError.cannotParseResponse(
            cause: RequestError.Cause.JSONResponseIsNotDictionaryOrArray(actualType: type(of: object)))
    }
}
