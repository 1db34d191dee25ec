import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// Seeded fuzzing of URL navigation and glob patterns; see ``FuzzRun`` to replay a failing case.
@MainActor
@Suite("URLFuzz: navigation and glob patterns from random text", .checksLifetimes)
struct URLFuzzTests {
    static let cases = 10_000
    let run = FuzzRun()

    enum Step: CaseIterable {
        case path, child, segment, relative, param, absolute
    }

    @Test("C3 D11 navigation never crashes: each result is sent as shown, or invalid and failing at once")
    func navigation() async {
        let harness = Harness()
        let service = harness.service
        await run.check("navigation", cases: Self.cases) { fuzzCase in
            var current = service.resource("")
            for _ in 0..<fuzzCase.int(in: 1...4) {
                let step = fuzzCase.pick(Step.allCases)
                var text = FuzzText.text(&fuzzCase)
                if step == .absolute || step == .relative, fuzzCase.chance(50) {
                    text = fuzzCase.pick(["https://h.example", "http://127.0.0.1:8080/", "//h.example/"]) + text
                }
                let next = Self.take(step, text: text, from: current, service: service, &fuzzCase)
                fuzzCase.note("→ \(next.url.absoluteString)\(next.invalidURLSource == nil ? "" : " (invalid)")")
                if let violation = Self.violation(next, step: step, text: text, parent: current, service: service) {
                    return violation
                }
                current = next
            }
            return nil
        }
        #expect(harness.network.sent.isEmpty)
    }

    @Test("what the loopback server receives is the path and query a resource shows, for random paths")
    func onTheWire() async throws {
        let fixture = try await IntegrationFixture()
        let service = Service(
            baseURL: "http://127.0.0.1:\(fixture.server.port)/echo/", options: .init(networking: fixture.provider))
        // Real requests: a few hundred cases keep this under a second.
        await run.check("on the wire", cases: 200) { fuzzCase in
            var resource = service.resource("")
            for _ in 0..<fuzzCase.int(in: 1...3) {
                let step = fuzzCase.pick([Step.path, .child, .segment, .param])
                resource = Self.take(step, text: FuzzText.text(&fuzzCase), from: resource, service: service, &fuzzCase)
            }
            guard resource.invalidURLSource == nil else { return nil }
            guard let info = await fixture.completion(of: resource.load()),
                let echo = info.response.entity?.content as? [String: Any]
            else {
                return "the echo request for \(resource.url.absoluteString) failed"
            }
            let shown = URLBuilding.Parts(splitting: resource.url.absoluteString)
            let received = (echo["path"] as? String ?? "<none>", echo["query"] as? String ?? "<none>")
            guard received == (shown.path, shown.query ?? "") else {
                return "sent \(resource.url.absoluteString), the server received path \(received.0) query \(received.1)"
            }
            return nil
        }
    }

    @Test("D19 glob patterns from random text never crash and match what a regular expression of the glob matches")
    func globAgainstRegex() async {
        let bases: [URL?] = [URL(string: "https://zingle.frotz/v1/"), URL(string: "http://127.0.0.1:8080/"), nil]
        await run.check("glob against regex", cases: Self.cases) { fuzzCase in
            let glob = GlobFuzz.pattern(&fuzzCase)
            let base = fuzzCase.pick(bases)
            let absolute = URLPattern.absolutePattern(glob, baseURL: base)
            let url = GlobFuzz.url(near: absolute, &fuzzCase)
            fuzzCase.note(
                "glob \(glob.debugDescription) base \(base?.absoluteString ?? "nil") url \(url.absoluteString)")
            let matched = URLPattern(glob: glob, baseURL: base).matches(url)
            guard let oracle = GlobFuzz.regex(for: absolute) else { return "the oracle regex did not compile" }
            let text = GlobFuzz.textWithoutQuery(url)
            let expected = oracle.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
            return matched == expected ? nil : "URLPattern says \(matched), the regular expression says \(expected)"
        }
    }

    @Test("D18 D19 under the base, ** matches every resource and * exactly those one segment below")
    func globSanity() async {
        let harness = Harness()
        let service = harness.service
        let base = service.resource("")
        let everything = URLPattern(glob: "**", baseURL: service.baseURL)
        let oneLevel = URLPattern(glob: "*", baseURL: service.baseURL)
        let baseText = service.baseURL?.absoluteString ?? ""
        await run.check("glob sanity", cases: Self.cases) { fuzzCase in
            var resource = Self.take(.path, text: FuzzText.text(&fuzzCase), from: base, service: service, &fuzzCase)
            if fuzzCase.chance(30) {
                resource = Self.take(
                    .param, text: FuzzText.text(&fuzzCase), from: resource, service: service, &fuzzCase)
            }
            if fuzzCase.chance(30) {
                resource = Self.take(
                    .segment, text: FuzzText.text(&fuzzCase), from: resource, service: service, &fuzzCase)
            }
            let url = resource.url
            fuzzCase.note("resource \(url.absoluteString)")
            guard resource.invalidURLSource == nil else { return nil }
            guard everything.matches(url) else { return "** does not match it" }
            let rest = GlobFuzz.textWithoutQuery(url).dropFirst(baseText.count)
            let isOneLevel = !rest.contains("/")
            return oneLevel.matches(url) == isOneLevel ? nil : "* matches it: \(!isOneLevel)"
        }
    }

    // MARK: Navigation

    private static func take(
        _ step: Step, text: String, from parent: Resource, service: Service, _ fuzzCase: inout FuzzCase
    ) -> Resource {
        switch step {
        case .path:
            fuzzCase.note("service.resource(\(text.debugDescription))")
            return service.resource(text)
        case .child:
            fuzzCase.note("child(\(text.debugDescription))")
            return parent.child(text)
        case .segment:
            fuzzCase.note("child(segment: \(text.debugDescription))")
            return parent.child(segment: text)
        case .relative:
            fuzzCase.note("relative(\(text.debugDescription))")
            return parent.relative(text)
        case .param:
            let value = fuzzCase.chance(20) ? nil : FuzzText.text(&fuzzCase)
            fuzzCase.note("withParam(\(text.debugDescription), \(value.debugDescription))")
            return parent.withParam(text, value)
        case .absolute:
            fuzzCase.note("service.resource(absoluteURL: \(text.debugDescription))")
            return service.resource(absoluteURL: text)
        }
    }

    /// What is wrong with `resource`, reached from `parent` by `step`; nil when nothing is.
    private static func violation(
        _ resource: Resource, step: Step, text: String, parent: Resource, service: Service
    ) -> String? {
        if resource.invalidURLSource != nil {
            // W3: a path, child or segment with a `.` or `..` segment is refused.
            let refusesDots = (step == .path || step == .child || step == .segment) && URLBuilding.hasDotSegment(text)
            let mayBeInvalid =
                parent.invalidURLSource != nil || step == .relative || step == .absolute
                || (step == .segment && text.isEmpty) || refusesDots
            if !mayBeInvalid { return "\(step) of a valid resource gave an invalid one" }
            let request = resource.request(.get)
            let cause = request.completedResponse?.response.error?.cause
            return request.state == .completed && cause is RequestError.Cause.InvalidURL
                ? nil : "an invalid resource's request did not fail at once with InvalidURL"
        }
        let shown = resource.url.absoluteString
        guard let parts = URLBuilding.Parts(parsing: shown) else { return "not a valid URI reference" }
        let sent = resource.buildURLRequest(.get, body: nil, requestMutation: { _ in }).url?.absoluteString
        guard sent == shown else { return "the request would be sent to \(sent ?? "nil")" }
        guard URL(string: shown)?.absoluteString == shown else { return "Foundation reads it as another URL" }
        guard parts.isUsable else { return "its host or port cannot be sent" }
        // Without an authority a path starting "//" needs its "/." prefix; that is not a URL anyone sends.
        if parts.authority != nil && URLBuilding.hasDotSegment(parts.path) {
            return "it has a literal dot segment, which URLSession on Linux resolves before sending"
        }

        return stepViolation(parts, step: step, text: text, parent: parent, service: service)
    }

    /// What a step promises beyond a valid URL: `child` and `resource(_:)` stay below, `child(segment:)` adds
    /// exactly one segment, `withParam` keeps the path.
    private static func stepViolation(
        _ parts: URLBuilding.Parts, step: Step, text: String, parent: Resource, service: Service
    ) -> String? {
        let above = URLBuilding.Parts(splitting: parent.url.absoluteString)
        let directory = above.path.hasSuffix("/") ? above.path : above.path + "/"
        switch step {
        case .path:
            let basePath = URLBuilding.Parts(splitting: service.baseURL?.absoluteString ?? "").path
            return parts.path.hasPrefix(basePath) ? nil : "resource(_:) left the base path"
        case .child:
            guard parts.path.hasPrefix(directory), parts.query == above.query else { return "child left its parent" }
            let added = URLBuilding.percentDecoded(parts.path.dropFirst(directory.count))
            // W3: many servers and URL parsers decode before removing dot segments.
            return URLBuilding.hasDotSegment(added) ? "child added an escaped dot segment" : nil
        case .segment:
            guard parts.path.hasPrefix(directory), parts.query == above.query else {
                return "child(segment:) left its parent"
            }
            let segment = String(parts.path.dropFirst(directory.count))
            guard !segment.contains("/"), !URLBuilding.isDotSegment(segment.utf8) else {
                return "child(segment:) added \(segment), not one plain segment"
            }
            return URLBuilding.percentDecoded(segment) == text ? nil : "the segment does not decode to the input"
        case .param:
            return parts.path == above.path ? nil : "withParam changed the path"
        case .relative, .absolute:
            return nil
        }
    }
}

/// Random globs, URLs near them, and an independent oracle: the same glob as a regular expression.
enum GlobFuzz {
    static let pieces: [String] = [
        "*", "**", "***", "/**/", "/**", "**/", "?", "/", "//", "a", "b", "ab", ".", "%20", "%", ":", "@", "!", "$",
        "+", "(", ")", "[", "]", "{", "}", "^", "|", "\\", "#", "&", "=", "~", "-", "https://", "http://", "*.",
        ":*", ":8080", "zingle.frotz", "v1", "users", " ", "é", "\u{301}", "𝄞", "\0", "\n",
    ]

    static func pattern(_ fuzzCase: inout FuzzCase) -> String {
        var pattern = ""
        for _ in 0..<fuzzCase.int(in: 0...8) {
            pattern += fuzzCase.chance(90) ? fuzzCase.pick(pieces) : String(FuzzText.scalar(&fuzzCase))
        }
        return pattern
    }

    /// A URL made from `glob` with its wildcards filled in, so that matches are common; sometimes altered, and a
    /// random resource URL when Foundation refuses the text.
    static func url(near glob: String, _ fuzzCase: inout FuzzCase) -> URL {
        var text = ""
        for token in tokens(glob) {
            switch token {
            case .literal(let scalar): text.unicodeScalars.append(scalar)
            case .segmentRun: text += fuzzCase.pick(["", "a", "b.c", "%20", "x*", "?"])
            case .anything: text += fuzzCase.pick(["", "a/b", "/", "x", "a/"])
            case .slashAnythingSlash: text += fuzzCase.pick(["/", "/a/", "/a/b/", "//"])
            case .oneCharacter: text += fuzzCase.pick(["a", "/", "%", ""])
            }
        }
        if fuzzCase.chance(20), !text.isEmpty {
            text.remove(at: text.index(text.startIndex, offsetBy: fuzzCase.int(in: 0...(text.count - 1))))
        }
        if fuzzCase.chance(20) { text += fuzzCase.pick(["?q=1", "#f", "?a/b#c"]) }
        if let url = URL(string: text) { return url }
        let base = URLBuilding.serviceBaseURL("https://zingle.frotz/v1") ?? URL(fileURLWithPath: "/")
        return URLBuilding.resourceURL(base: base, path: FuzzText.text(&fuzzCase)) ?? base
    }

    /// The URL's text as glob matching sees it: without query and fragment.
    static func textWithoutQuery(_ url: URL) -> String {
        let text = url.absoluteString
        guard let end = text.firstIndex(where: { $0 == "?" || $0 == "#" }) else { return text }
        return String(text[..<end])
    }

    enum Token {
        case literal(Unicode.Scalar)
        case segmentRun, anything, slashAnythingSlash, oneCharacter
    }

    /// The glob syntax of `URLPattern`, read scalar by scalar.
    static func tokens(_ glob: String) -> [Token] {
        let scalars = Array(glob.unicodeScalars)
        var tokens: [Token] = []
        var index = 0
        while index < scalars.count {
            if scalars[index...].starts(with: ["/", "*", "*", "/"]) {
                tokens.append(.slashAnythingSlash)
                index += 4
            } else if scalars[index] == "*" {
                let end = scalars[index...].firstIndex { $0 != "*" } ?? scalars.count
                tokens.append(end - index == 1 ? .segmentRun : .anything)
                index = end
            } else {
                tokens.append(scalars[index] == "?" ? .oneCharacter : .literal(scalars[index]))
                index += 1
            }
        }
        return tokens
    }

    /// The glob as an anchored regular expression, every literal written as `\x{…}` so nothing in it is syntax.
    static func regex(for glob: String) -> NSRegularExpression? {
        var pattern = "^"
        for token in tokens(glob) {
            switch token {
            case .literal(let scalar): pattern += "\\x{" + String(scalar.value, radix: 16) + "}"
            case .segmentRun: pattern += "[^/]*"
            case .anything: pattern += ".*"
            case .slashAnythingSlash: pattern += "/(?:.*/)?"
            case .oneCharacter: pattern += "[^/]"
            }
        }
        return try? NSRegularExpression(pattern: pattern + "$", options: [.dotMatchesLineSeparators])
    }
}
