import Foundation
import Repose

extension Service {
    /// The resource whose path under the base URL is `segments`, each one segment whatever it holds: the same
    /// rules as `child(segment:)` (only letters, digits, `-`, `.`, `_` and `~` stay as they are, and a segment that
    /// is `.` or `..` gives an invalid resource, whose loads fail at once), so a login the user types cannot reach
    /// another path or add a query.
    ///
    /// Unlike a chain of `child(segment:)` calls (or `withParam`), it makes no resource for each parent path on the
    /// way, which the inspector would list as empty rows.
    func resource(segments: String..., query: String? = nil) -> Resource {
        resource(segments: segments, query: query)
    }

    /// The resource whose path under the base URL is `segments`, each escaped as one segment, with `query` (already
    /// escaped) after it.
    func resource(segments: [String], query: String? = nil) -> Resource {
        if let dot = segments.first(where: { $0 == "." || $0 == ".." }) {
            // No form of a dot segment is safe to send (`%2E%2E` is read as `..` by many servers): refused, as
            // `child(segment:)` refuses it, with its message.
            return resource("").child(segment: dot)
        }
        let escaped = segments.map { $0.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? "" }
        let base = baseURL?.absoluteString ?? ""
        let separator = base.hasSuffix("/") ? "" : "/"
        let path = base + separator + escaped.joined(separator: "/")
        return resource(absoluteURL: query.map { path + "?" + $0 } ?? path)
    }

    /// The characters a path segment keeps as they are: RFC 3986's unreserved characters.
    private static let unreserved = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
}
