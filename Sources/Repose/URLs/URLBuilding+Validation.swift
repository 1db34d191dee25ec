import Foundation

// The RFC 3986 grammar, checked component by component on the split parts.
extension URLBuilding.Parts {
    /// Whether the parts form a valid URI reference (RFC 3986 sections 3 and 4.1).
    var isValid: Bool {
        if let scheme, !Self.isValidScheme(scheme) { return false }
        if let authority, !Self.isValidAuthority(Array(authority.utf8)) { return false }
        if scheme == nil && authority == nil
            && path.utf8.prefix(while: { $0 != UInt8(ascii: "/") }).contains(
                UInt8(ascii: ":"))
        {
            return false  // a relative path's first segment cannot hold a colon: it would read as a scheme
        }
        return URLBuilding.isWellFormed(path.utf8, allowing: URLBuilding.isPathByte)
            && URLBuilding.isWellFormed((query ?? "").utf8, allowing: URLBuilding.isQueryByte)
            && URLBuilding.isWellFormed((fragment ?? "").utf8, allowing: URLBuilding.isQueryByte)
    }

    /// Whether a request can be sent to the URL: an `http`, `https`, `ws` or `wss` URL needs a host made of
    /// letters, digits, `-`, `.`, `_` and `~` (or an IPv6 literal) and a port no higher than 65535; other schemes
    /// need nothing more (a custom networking provider may well handle them). URLSession on Linux would reject the
    /// rest with a bare "bad URL" error, after the resource had taken the URL as its key.
    var isUsable: Bool {
        guard isHTTPLike else { return true }
        guard let authority else { return false }
        let bytes = Array(authority.utf8)
        let hostBounds = Self.hostBounds(in: bytes)
        let host = bytes[hostBounds]
        let hostIsUsable =
            host.first == UInt8(ascii: "[")
            ? host.dropFirst().first != UInt8(ascii: "v") && host.dropFirst().first != UInt8(ascii: "V")
            : !host.isEmpty && host.allSatisfy(URLBuilding.isUnreserved)
        let port = bytes[hostBounds.upperBound...].dropFirst()  // without its ":"
        // Leading zeros dropped first, so that a long run of digits cannot overflow `Int`.
        let significant = port.drop { $0 == UInt8(ascii: "0") }
        let portIsUsable = significant.count <= 5 && (Int(String(decoding: significant, as: UTF8.self)) ?? 0) <= 65535
        return hostIsUsable && portIsUsable
    }

    private static func isValidScheme(_ scheme: String) -> Bool {
        guard let first = scheme.utf8.first, isLetter(first) else { return false }
        return scheme.utf8.allSatisfy {
            isLetter($0) || URLBuilding.isDigit($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-")
                || $0 == UInt8(ascii: ".")
        }
    }

    private static func isValidAuthority(_ bytes: [UInt8]) -> Bool {
        let hostBounds = hostBounds(in: bytes)
        let userinfo = bytes[..<hostBounds.lowerBound].dropLast()  // without its "@"
        let host = bytes[hostBounds]
        let rest = bytes[hostBounds.upperBound...]
        let userinfoIsValid = URLBuilding.isWellFormed(userinfo, allowing: URLBuilding.isUserinfoByte)
        let portIsValid =
            rest.isEmpty || (rest.first == UInt8(ascii: ":") && rest.dropFirst().allSatisfy(URLBuilding.isDigit))
        let hostIsValid =
            host.first == UInt8(ascii: "[")
            ? host.last == UInt8(ascii: "]") && host.count >= 2 && isValidIPLiteral(host.dropFirst().dropLast())
            : URLBuilding.isWellFormed(host) { URLBuilding.isUnreserved($0) || URLBuilding.isSubDelimiter($0) }
        return userinfoIsValid && hostIsValid && portIsValid
    }

    /// `IPv6address`, optionally with an RFC 6874 zone (`%25en0`), or `IPvFuture`.
    private static func isValidIPLiteral(_ bytes: ArraySlice<UInt8>) -> Bool {
        if bytes.first == UInt8(ascii: "v") || bytes.first == UInt8(ascii: "V") {
            let body = bytes.dropFirst()
            guard let dot = body.firstIndex(of: UInt8(ascii: ".")) else { return false }
            let version = body[..<dot]
            let rest = body[(dot + 1)...]
            return !version.isEmpty && version.allSatisfy(URLBuilding.isHexDigit) && !rest.isEmpty
                && rest.allSatisfy(URLBuilding.isUserinfoByte)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let zoneParts = text.components(separatedBy: "%25")
        guard zoneParts.count <= 2 else { return false }
        if zoneParts.count == 2 {
            let zone = zoneParts[1].utf8
            guard !zone.isEmpty, URLBuilding.isWellFormed(zone, allowing: URLBuilding.isUnreserved) else {
                return false
            }
        }
        return isIPv6Address(zoneParts[0])
    }

    private static func isIPv6Address(_ text: String) -> Bool {
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return false }
        let groups = halves.flatMap { $0.isEmpty ? [] : $0.split(separator: ":", omittingEmptySubsequences: false) }
        var pieceCount = 0
        for (index, group) in groups.enumerated() {
            if index == groups.count - 1 && group.contains(".") {
                guard isIPv4Address(group) else { return false }
                pieceCount += 2
            } else {
                guard (1...4).contains(group.utf8.count), group.utf8.allSatisfy(URLBuilding.isHexDigit) else {
                    return false
                }
                pieceCount += 1
            }
        }
        return halves.count == 2 ? pieceCount <= 7 : pieceCount == 8
    }

    private static func isIPv4Address(_ text: Substring) -> Bool {
        let octets = text.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4
            && octets.allSatisfy { octet in
                (1...3).contains(octet.utf8.count) && octet.utf8.allSatisfy(URLBuilding.isDigit)
                    && (Int(octet) ?? 256) <= 255
            }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }
}
