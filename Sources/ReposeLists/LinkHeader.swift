import Repose

/// The links of an HTTP `Link` header (RFC 8288), read leniently: whatever cannot be read is skipped.
///
/// `<https://api.example.com/repos?page=2>; rel="next", </repos?page=9>; rel=last` gives two links. A header value
/// may hold several links, relation types may be quoted or not, one `rel` may name several types (`rel="next
/// prefetch"`, or unquoted `rel=next prefetch`, as RFC 8288 Appendix B.3 reads an unquoted value: up to the next
/// `;` or `,`), and spacing around `;`, `,` and `=` is free. Targets are returned as written; resolve them against
/// the URL of the response they came with (`Resource.relative(_:)`).
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
        var scanner = HeaderFieldScanner(value)
        links = []
        while true {
            scanner.skipEmptyElements()
            guard !scanner.isAtEnd else { return }
            guard scanner.skip("<") else {
                scanner.skipToComma()
                continue
            }
            scanner.skipSpaces()
            let target = scanner.read(upTo: { $0 == UInt8(ascii: ">") })
            guard scanner.skip(">") else { return }  // an unclosed target ends the header
            var parameters: [String: String] = [:]
            scanner.readParameters { name, value in
                if parameters[name] == nil { parameters[name] = value ?? "" }
            }
            links.append(Link(target: target, parameters: parameters))
        }
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
