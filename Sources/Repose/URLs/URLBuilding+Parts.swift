import Foundation

extension URLBuilding {
    /// The five components of a URI reference (RFC 3986 section 3), split and checked by our own code so that
    /// the same string gives the same parts on Linux and Apple platforms.
    struct Parts: Equatable {
        var scheme: String?
        var authority: String?
        var path: String
        var query: String?
        var fragment: String?

        /// The parts joined back into a URI reference (RFC 3986 section 5.3).
        var string: String {
            var result = ""
            if let scheme { result += scheme + ":" }
            if let authority {
                result += "//" + authority
            } else if path.hasPrefix("//") {
                result += "/."  // keeps the path from reading as an authority
            }
            result += path
            if let query { result += "?" + query }
            if let fragment { result += "#" + fragment }
            return result
        }

        /// The joined string wrapped in a `URL`; Foundation only wraps it, the rules are ours.
        var url: URL? { URL(string: string) }

        /// Whether the scheme is `http`, `https`, `ws` or `wss`: one whose URLs are sent to a host and port.
        var isHTTPLike: Bool {
            guard let scheme = scheme?.lowercased() else { return false }
            return ["http", "https", "ws", "wss"].contains(scheme)
        }

        /// Gives an `http(s)` or `ws(s)` URL with an authority and an empty path the path `/`, the one that is
        /// sent for it (RFC 9110 section 4.2.3), so that `https://foo.bar` and `https://foo.bar/` are one resource.
        mutating func giveEmptyHTTPPathASlash() {
            if path.isEmpty && authority != nil && isHTTPLike { path = "/" }
        }

        /// Lowercases the scheme and the host, which are case-insensitive (RFC 3986 section 6.2.2.1), so that
        /// one resource has one spelling; userinfo, path, query and fragment are case-sensitive and kept.
        mutating func lowercaseSchemeAndHost() {
            scheme = scheme.map { Self.lowercasedASCII($0) }
            guard let authority else { return }
            var bytes = Array(authority.utf8)
            let bounds = Self.hostBounds(in: bytes)
            var index = bounds.lowerBound
            while index < bounds.upperBound {
                if bytes[index] == UInt8(ascii: "%") {
                    index += 3  // leave the hex digits of an escape alone
                    continue
                }
                if (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(bytes[index]) { bytes[index] += 32 }
                index += 1
            }
            self.authority = String(decoding: bytes, as: UTF8.self)
        }

        /// The range of the host within an authority's bytes, brackets of an IP literal included.
        static func hostBounds(in authority: [UInt8]) -> Range<Int> {
            let start = authority.lastIndex(of: UInt8(ascii: "@")).map { $0 + 1 } ?? authority.startIndex
            if authority[start...].first == UInt8(ascii: "[") {
                let end = authority[start...].firstIndex(of: UInt8(ascii: "]")).map { $0 + 1 } ?? authority.endIndex
                return start..<end
            }
            return start..<(authority[start...].firstIndex(of: UInt8(ascii: ":")) ?? authority.endIndex)
        }

        static func text(_ bytes: ArraySlice<UInt8>) -> String {
            String(decoding: bytes, as: UTF8.self)
        }

        private static func lowercasedASCII(_ text: String) -> String {
            String(
                decoding: text.utf8.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 + 32 : $0 },
                as: UTF8.self)
        }
    }
}

// In an extension, so that the memberwise initializer stays.
extension URLBuilding.Parts {
    /// Splits any string the way RFC 3986 appendix B does; never fails, checks nothing.
    init(splitting string: String) {
        let bytes = Array(string.utf8)
        var end = bytes.endIndex
        if let hash = bytes.firstIndex(of: UInt8(ascii: "#")) {
            fragment = Self.text(bytes[(hash + 1)...])
            end = hash
        }
        if let mark = bytes[..<end].firstIndex(of: UInt8(ascii: "?")) {
            query = Self.text(bytes[(mark + 1)..<end])
            end = mark
        }
        var start = bytes.startIndex
        if let colon = bytes[..<end].firstIndex(of: UInt8(ascii: ":")), colon > start,
            !bytes[..<colon].contains(UInt8(ascii: "/"))
        {
            scheme = Self.text(bytes[..<colon])
            start = colon + 1
        }
        if bytes[start..<end].starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")]) {
            let authorityEnd = bytes[(start + 2)..<end].firstIndex(of: UInt8(ascii: "/")) ?? end
            authority = Self.text(bytes[(start + 2)..<authorityEnd])
            start = authorityEnd
        }
        path = Self.text(bytes[start..<end])
    }

    /// Splits `string` and checks it against the RFC 3986 grammar; nil when it is not a valid URI reference.
    init?(parsing string: String) {
        self.init(splitting: string)
        guard isValid else { return nil }
    }
}
