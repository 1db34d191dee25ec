// Relative reference resolution, RFC 3986 section 5.2, on our own parts rather than Foundation's
// `URL(string:relativeTo:)`, whose results differ between platforms.
extension URLBuilding {
    /// `reference` resolved against `base` (RFC 3986 section 5.2.2, strict: a reference with a scheme is
    /// taken as it is, dot segments aside).
    static func resolve(_ reference: Parts, against base: Parts) -> Parts {
        if reference.scheme != nil {
            var target = reference
            target.path = removingDotSegments(reference.path)
            return target
        }
        var target = Parts(
            scheme: base.scheme, authority: base.authority, path: base.path, query: reference.query,
            fragment: reference.fragment)
        if reference.authority != nil {
            target.authority = reference.authority
            target.path = removingDotSegments(reference.path)
        } else if reference.path.isEmpty {
            target.query = reference.query ?? base.query
        } else if reference.path.hasPrefix("/") {
            target.path = removingDotSegments(reference.path)
        } else {
            target.path = removingDotSegments(merging(reference.path, into: base))
        }
        return target
    }

    /// The reference's path appended to the base path's directory (RFC 3986 section 5.2.3).
    private static func merging(_ path: String, into base: Parts) -> String {
        if base.authority != nil && base.path.isEmpty { return "/" + path }
        guard let lastSlash = base.path.lastIndex(of: "/") else { return path }
        return base.path[...lastSlash] + path
    }

    /// `path` with its `.` and `..` segments interpreted and removed (RFC 3986 section 5.2.4).
    static func removingDotSegments(_ path: String) -> String {
        var input = Substring(path)
        // Each output element is one segment with its leading "/" (if any), so `..` pops exactly one.
        var output: [Substring] = []
        while !input.isEmpty {
            if input.hasPrefix("../") {
                input = input.dropFirst(3)
            } else if input.hasPrefix("./") {
                input = input.dropFirst(2)
            } else if input.hasPrefix("/./") {
                input = input.dropFirst(2)
            } else if input == "/." {
                input = "/"
            } else if input.hasPrefix("/../") {
                input = input.dropFirst(3)
                _ = output.popLast()
            } else if input == "/.." {
                input = "/"
                _ = output.popLast()
            } else if input == "." || input == ".." {
                input = ""
            } else {
                let searchStart = input.hasPrefix("/") ? input.index(after: input.startIndex) : input.startIndex
                let segmentEnd = input[searchStart...].firstIndex(of: "/") ?? input.endIndex
                output.append(input[..<segmentEnd])
                input = input[segmentEnd...]
            }
        }
        return output.joined()
    }
}
