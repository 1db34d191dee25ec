/// The directives of a `Cache-Control` header, read the way HTTP defines them.
///
/// A header is a comma-separated list of directives, each a name with an optional value: `max-age=60`,
/// `no-cache="Set-Cookie, Authorization"`. Names are matched in any letter case; spaces and tabs around names,
/// `=` and commas are allowed; a value is a token or a quoted string, in which `\"` stands for a quote and a comma
/// does not end the directive. Empty list elements (`a,,b`) are skipped. Of a directive given twice, the first
/// counts. A directive that does not follow this grammar is left out and named in ``malformed``.
struct CacheControl: Equatable {
    /// Lowercased directive names with their values (unquoted, unescaped), `nil` for a directive without one.
    let directives: [String: String?]
    /// The parts of the header that are not directives, as written, for a log line.
    let malformed: [String]

    /// Parses `header`; a missing header has no directives.
    init(_ header: String?) {
        var scanner = HeaderFieldScanner(header ?? "")
        var directives: [String: String?] = [:]
        var malformed: [String] = []
        while true {
            scanner.skipEmptyElements()
            guard !scanner.isAtEnd else { break }
            let start = scanner.index
            if let directive = Self.directive(&scanner), scanner.isAtEnd || scanner.isAt(",") {
                if directives[directive.name] == nil { directives[directive.name] = directive.value }  // first wins
            } else {
                scanner.skipToComma()
                malformed.append(scanner.text(from: start))
            }
        }
        self.directives = directives
        self.malformed = malformed
    }

    /// The directive at the scanner: a token, then optionally `=` and a token or a closed quoted string, spaces
    /// around `=` allowed; `nil` where the text does not follow that grammar.
    private static func directive(_ scanner: inout HeaderFieldScanner) -> (name: String, value: String?)? {
        let name = scanner.readToken()
        guard !name.isEmpty else { return nil }
        scanner.skipSpaces()
        var value: String?
        if scanner.skip("=") {
            scanner.skipSpaces()
            if scanner.isAt("\"") {
                let quoted = scanner.readQuoted()
                guard quoted.isClosed else { return nil }
                value = quoted.text
            } else {
                value = scanner.readToken()
                guard value?.isEmpty == false else { return nil }
            }
            scanner.skipSpaces()
        }
        return (name.lowercased(), value)
    }

    /// Whether the response must not be kept in any cache (rule K6).
    var forbidsStoring: Bool { directives.keys.contains("no-store") }

    /// Whether the response must be revalidated before every use (rule R2): `no-cache` without a field list. The
    /// qualified form `no-cache="Set-Cookie"` only concerns the fields it names, so it does not count.
    var requiresRevalidation: Bool {
        guard let value = directives["no-cache"] else { return false }
        return value == nil
    }

    /// The `max-age` directive: absent, a number of seconds, or a value that is not one.
    var maxAge: DeltaSeconds {
        guard let value = directives["max-age"] else { return .absent }
        return DeltaSeconds(value ?? "")
    }
}

/// A `delta-seconds` value (`max-age`, `Age`, `Retry-After` in seconds): one or more ASCII digits, nothing else.
/// A value too large to represent is taken as 2,147,483,648 seconds (68 years), as HTTP prescribes.
enum DeltaSeconds: Equatable {
    case absent
    case seconds(Double)
    case invalid(String)

    init(_ text: String) {
        var scanner = HeaderFieldScanner(text)
        scanner.skipSpaces()
        let number = scanner.readNumber()
        scanner.skipSpaces()
        self = number.digits > 0 && scanner.isAtEnd ? .seconds(Double(number.value)) : .invalid(text)
    }
}
