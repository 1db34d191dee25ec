/// The directives of a `Cache-Control` header, read the way HTTP defines them: names are case-insensitive, separated
/// by commas, and may carry a value (`max-age=60`, `no-cache="Set-Cookie"`).
struct CacheControl: Equatable {
    /// Lowercased directive names with their values (unquoted), `nil` for a directive without one.
    let directives: [String: String?]

    /// Parses `header`; a missing header has no directives.
    init(_ header: String?) {
        var directives: [String: String?] = [:]
        for part in (header ?? "").split(separator: ",") {
            let pieces = part.split(separator: "=", maxSplits: 1)
            guard let rawName = pieces.first else { continue }
            let name = rawName.trimmingWhitespace().lowercased()
            guard !name.isEmpty else { continue }
            let value = pieces.count > 1 ? pieces[1].trimmingWhitespace().trimmingQuotes() : nil
            if directives[name] == nil { directives[name] = value }  // the first occurrence wins
        }
        self.directives = directives
    }

    /// Whether the response must not be kept in any cache (rule K6).
    var forbidsStoring: Bool { directives.keys.contains("no-store") }
}

extension Substring {
    fileprivate func trimmingWhitespace() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

extension String {
    fileprivate func trimmingQuotes() -> String {
        count >= 2 && hasPrefix("\"") && hasSuffix("\"") ? String(dropFirst().dropLast()) : self
    }
}
