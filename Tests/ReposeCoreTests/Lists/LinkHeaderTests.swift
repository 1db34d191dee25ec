import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@Suite("Link header parsing")
struct LinkHeaderTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let header: String
        let next: String?
        let note: String
        var testDescription: String { note }
    }

    static let cases: [Case] = [
        Case(header: #"<https://a.example/r?page=2>; rel="next""#, next: "https://a.example/r?page=2", note: "quoted"),
        Case(header: "<https://a.example/r?page=2>; rel=next", next: "https://a.example/r?page=2", note: "unquoted"),
        Case(
            header: #"</r?page=1>; rel="first", </r?page=3>; rel="next", </r?page=9>; rel="last""#,
            next: "/r?page=3", note: "several links, relative targets"),
        Case(header: #"</r?page=3>; rel="prev next""#, next: "/r?page=3", note: "several relation types in one rel"),
        Case(header: #"</r?page=3>;rel="NEXT""#, next: "/r?page=3", note: "relation types ignore letter case"),
        Case(header: "  < /r?page=3 >  ;   rel  =  next  ,  ", next: "/r?page=3", note: "odd spacing everywhere"),
        Case(
            header: #"</r?a=1,2;b>; rel="next"; title="x, y; z""#, next: "/r?a=1,2;b",
            note: "commas and semicolons inside the target and a quoted value"),
        Case(
            header: #"</a>; title="say \"next\""; rel="prev", </b>; rel="next""#, next: "/b",
            note: "escaped quotes in a value do not end it"),
        Case(
            header: #"</a>; rel="next"; rel="prev""#, next: "/a", note: "of a parameter given twice, the first counts"),
        Case(header: #"</a>; rel="prev""#, next: nil, note: "no next link"),
        Case(header: "", next: nil, note: "empty"),
        Case(header: "garbage, </b>; rel=next", next: "/b", note: "a malformed link before a good one is skipped"),
        Case(header: #"</a; rel="next""#, next: nil, note: "an unclosed target ends the header"),
        Case(header: #"</a>; rel="next"#, next: "/a", note: "an unclosed quoted value runs to the end"),
        Case(header: "</a>; rel", next: nil, note: "a parameter without a value"),
        Case(header: "</a> junk; rel=next, </b>; rel=next", next: "/b", note: "junk after a target skips that link"),
        Case(header: "<>; rel=next", next: "", note: "an empty target is read as written"),
        Case(
            header: "<\u{00E9}/caf\u{00E9}>; rel=next", next: "\u{00E9}/caf\u{00E9}", note: "non-ASCII text kept whole"),
        // W6: RFC 8288 Appendix B.3 reads an unquoted value up to the next ";" or ","; B.2 splits it on spaces.
        Case(header: "</a>; rel=prefetch next", next: "/a", note: "W6 unquoted rel with several relation types"),
        Case(
            header: "</a>; rel=prev NEXT ; title=x", next: "/a", note: "W6 unquoted types, any case, then a parameter"),
        Case(header: "</a>; rel=next\tlast, </b>; rel=first", next: "/a", note: "W6 unquoted types split on a tab"),
        Case(
            header: #"</a>; rel="next"; anchor="/other", </b>; rel="next""#, next: "/b",
            note: "W6 a link anchored at another resource is that resource's link"),
        Case(header: #"</a>; rel="next"; anchor="""#, next: "/a", note: "W6 an empty anchor is the page itself"),
    ]

    @Test("L1 the next link is read from Link headers as RFC 8288 writes them", arguments: cases)
    func nextLink(_ testCase: Case) {
        #expect(LinkHeader(testCase.header).target(relation: "next") == testCase.next)
    }

    @Test("L1 every link keeps its parameters, names lowercased and values unquoted")
    func parameters() {
        let header = LinkHeader(#"</a>; REL="next last"; Title="A \"b\"", <https://x.example/c>; anchor"#)
        #expect(
            header.links == [
                .init(target: "/a", parameters: ["rel": "next last", "title": #"A "b""#]),
                .init(target: "https://x.example/c", parameters: ["anchor": ""]),
            ])
        #expect(header.links.first?.relations == ["next", "last"])
        #expect(LinkHeader("</a>; rel=next last; x").links.first?.parameters == ["rel": "next last", "x": ""])
    }

    @Test("W6 an anchor is the page's own only when the caller says so")
    func anchorContext() {
        let header = LinkHeader(#"</a>; rel=next; anchor="https://x.example/p", </b>; rel=next"#)
        #expect(header.target(relation: "next") == "/b")
        #expect(header.target(relation: "next", isSelf: { $0 == "https://x.example/p" }) == "/a")
    }

    @Test("malformed Link headers never crash, and what is read survives being written and read again")
    func fuzz() {
        var random = SeededGenerator(seed: 8288)
        let alphabet = Array(#"<>;,="\ a/?rel=nextNEXT"#)
        for _ in 0..<2_000 {
            let length = Int.random(in: 0..<40, using: &random)
            let text = String((0..<length).map { _ in alphabet.randomElement(using: &random) ?? " " })
            let links = LinkHeader(text).links
            for link in links {
                #expect(link.target.isEmpty || text.contains(link.target), "\(text)")
            }
            #expect(LinkHeader(Self.written(links)).links == links, "\(text)")
        }
    }

    /// `links` as a header value: targets in angle brackets, every value quoted and escaped.
    static func written(_ links: [LinkHeader.Link]) -> String {
        links.map { link in
            let parameters = link.parameters.sorted { $0.key < $1.key }.map { name, value in
                let escaped = value.replacingOccurrences(of: "\\", with: "\\\\")
                    .replacingOccurrences(of: "\"", with: "\\\"")
                return "; \(name)=\"\(escaped)\""
            }
            return "<\(link.target)>" + parameters.joined()
        }.joined(separator: ", ")
    }
}
