/// The links of an HTTP `Link` header (RFC 8288), read leniently: whatever cannot be read is skipped.
///
/// `<https://api.example.com/repos?page=2>; rel="next", </repos?page=9>; rel=last` gives two links. A header value
/// may hold several links, relation types may be quoted or not, one `rel` may name several types (`rel="next
/// prefetch"`, or unquoted `rel=next prefetch`, as RFC 8288 Appendix B.3 reads an unquoted value: up to the next
/// `;` or `,`), and spacing around `;`, `,` and `=` is free. Targets are returned as written; resolve them against
/// the URL of the response they came with (``Resource/relative(_:)``).
///
/// A link with an `anchor` parameter describes the resource the anchor names, not the response it came with
/// (RFC 8288 §3.2): ``target(relation:context:)`` asks whether that is still this page.
struct LinkHeader: Equatable {
    /// One link: its target and its parameters.
    struct Link: Equatable {
        /// The target, as written between `<` and `>`, without surrounding spaces.
        var target: String
        /// The parameters by lowercased name, values unquoted. Of a parameter given twice, the first counts.
        var parameters: [String: String]

        /// The relation types of `rel`, lowercased.
        var relations: [String] {
            guard let rel = parameters["rel"] else { return [] }
            return rel.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        }

        /// The `anchor` parameter, as written: the link's context when it is not the response's own resource.
        var anchor: String? { parameters["anchor"] }
    }

    /// The links, in the order they appear.
    var links: [Link]

    /// Reads every well-formed link of `value`; malformed parts are skipped, never a crash.
    init(_ value: String) {
        var reader = Reader(bytes: Array(value.utf8))
        links = reader.readLinks()
    }

    /// The target of the first link whose relation types include `relation` (compared without letter case) and
    /// whose context is the response's own resource: a link without an `anchor`, or one whose anchor `isSelf`
    /// accepts (rule W6). A `next` link anchored at `/other` is the next of `/other`, not of this page.
    func target(relation: String, isSelf: (String) -> Bool = { $0.isEmpty }) -> String? {
        let wanted = relation.lowercased()
        return links.first { link in
            link.relations.contains(wanted) && (link.anchor.map(isSelf) ?? true)
        }?.target
    }
}

extension LinkHeader {
    /// Walks the header's bytes. Delimiters are ASCII, so slicing at them never splits a UTF-8 sequence.
    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        mutating func readLinks() -> [Link] {
            var links: [Link] = []
            while true {
                skip { $0 == .space || $0 == .tab || $0 == .comma }
                guard index < bytes.count else { return links }
                guard bytes[index] == .lessThan else {
                    skipToNextLink()
                    continue
                }
                guard let end = bytes[(index + 1)...].firstIndex(of: .greaterThan) else { return links }
                let target = text(index + 1..<end).trimmed
                index = end + 1
                links.append(Link(target: target, parameters: readParameters()))
            }
        }

        /// Reads `; name=value` pairs up to the comma that ends the link (or the end).
        private mutating func readParameters() -> [String: String] {
            var parameters: [String: String] = [:]
            while true {
                skipSpaces()
                guard index < bytes.count, bytes[index] != .comma else { return parameters }
                guard bytes[index] == .semicolon else {
                    skipToNextLink()
                    return parameters
                }
                index += 1
                skipSpaces()
                let name = readToken().lowercased()
                skipSpaces()
                var value = ""
                if index < bytes.count, bytes[index] == .equals {
                    index += 1
                    skipSpaces()
                    value = index < bytes.count && bytes[index] == .quote ? readQuoted() : readUnquoted()
                }
                if !name.isEmpty, parameters[name] == nil { parameters[name] = value }
            }
        }

        /// An unquoted value as RFC 8288 Appendix B.3 reads it: everything up to `;` or `,` (spaces included, so
        /// `rel=next prefetch` holds two relation types), without trailing spaces.
        private mutating func readUnquoted() -> String {
            let start = index
            skip { $0 != .semicolon && $0 != .comma }
            var end = index
            while end > start, bytes[end - 1] == .space || bytes[end - 1] == .tab { end -= 1 }
            return text(start..<end)
        }

        /// A token: everything up to a space, `;`, `,` or `=`.
        private mutating func readToken() -> String {
            let start = index
            skip { $0 != .space && $0 != .tab && $0 != .semicolon && $0 != .comma && $0 != .equals }
            return text(start..<index)
        }

        /// A quoted string starting at the opening quote, with `\` escapes; an unclosed one runs to the end.
        private mutating func readQuoted() -> String {
            index += 1
            var value: [UInt8] = []
            while index < bytes.count, bytes[index] != .quote {
                if bytes[index] == .backslash, index + 1 < bytes.count { index += 1 }
                value.append(bytes[index])
                index += 1
            }
            index = min(index + 1, bytes.count)
            return String(decoding: value, as: UTF8.self)
        }

        /// Moves to the next comma outside a quoted string (or to the end).
        private mutating func skipToNextLink() {
            var inQuotes = false
            while index < bytes.count {
                let byte = bytes[index]
                if inQuotes {
                    if byte == .backslash { index += 1 } else if byte == .quote { inQuotes = false }
                } else if byte == .quote {
                    inQuotes = true
                } else if byte == .comma {
                    return
                }
                index += 1
            }
        }

        private mutating func skipSpaces() {
            skip { $0 == .space || $0 == .tab }
        }

        private mutating func skip(while matches: (UInt8) -> Bool) {
            while index < bytes.count, matches(bytes[index]) { index += 1 }
        }

        private func text(_ range: Range<Int>) -> String {
            String(decoding: bytes[range], as: UTF8.self)
        }
    }
}

extension UInt8 {
    fileprivate static let space = UInt8(ascii: " ")
    fileprivate static let tab = UInt8(ascii: "\t")
    fileprivate static let comma = UInt8(ascii: ",")
    fileprivate static let semicolon = UInt8(ascii: ";")
    fileprivate static let equals = UInt8(ascii: "=")
    fileprivate static let quote = UInt8(ascii: "\"")
    fileprivate static let backslash = UInt8(ascii: "\\")
    fileprivate static let lessThan = UInt8(ascii: "<")
    fileprivate static let greaterThan = UInt8(ascii: ">")
}

extension String {
    fileprivate var trimmed: String {
        var scalars = Substring(self)
        while scalars.first == " " || scalars.first == "\t" { scalars.removeFirst() }
        while scalars.last == " " || scalars.last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
