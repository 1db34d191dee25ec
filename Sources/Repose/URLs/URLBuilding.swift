import Foundation

/// URL arithmetic behind `Service` and `Resource`, done on strings so it behaves the same on Linux and Apple.
///
/// Foundation's parsing and relative resolution differ between swift-corelibs-foundation and Apple's
/// Foundation, so every rule here is our own code over RFC 3986: splitting, validation, escaping, path joining,
/// dot-segment removal and query editing. `URL(string:)` only wraps the final string, which is already valid.
///
/// Rules shared by every function:
/// - A string must be a valid RFC 3986 URI reference to parse: nothing is guessed or repaired, so a space,
///   a non-ASCII character, a malformed escape (`%zz`) or an unclosed IP literal (`http://[bad`) gives nil.
///   An `http`, `https`, `ws` or `wss` URL also needs a host.
/// - Scheme and host are lowercased (they are case-insensitive), so `HTTPS://Foo.Bar/X` and `https://foo.bar/X`
///   name the same resource; userinfo, port, path, query and fragment are kept exactly.
/// - Text from the user (paths, parameter names and values) is percent-encoded as UTF-8 with uppercase hex.
/// - A resource URL is the URL that is sent. No URL built here has a `.` or `..` path segment (once it has a
///   scheme or an authority), literal or escaped: URLSession on Linux (libcurl) removes literal ones before sending
///   and Apple's may not, and WHATWG URL parsers, browsers and many servers read `%2E%2E` as `..`, so either would
///   reach another path than the one shown, configured and cached. A path from the user with a dot segment is
///   refused (nil); a URL given whole, or resolved by `relative`, has them removed (RFC 3986 section 5.2.4).
///   An `http(s)` or `ws(s)` URL with an empty path gets `/`, which is what is sent for it.
/// - An `http(s)` or `ws(s)` URL that cannot be sent is refused (nil): a port above 65535, or a host that no name
///   resolver accepts (percent-escapes, sub-delimiters such as `$` or `;`, an `IPvFuture` literal). URLSession
///   would only report a bare "bad URL" error for it.
package enum URLBuilding {
    /// D1 D2 D3 D4: normalises a service base URL: a trailing slash is added to the path
    /// (`http://foo.bar` → `http://foo.bar/`, `/baz` → `/baz/`, an existing slash is kept), before any query
    /// (`http://foo.bar/baz?x=y` → `http://foo.bar/baz/?x=y`).
    ///
    /// A fragment is dropped: it would otherwise be glued to every resource URL, and HTTP never sends one. Dot
    /// segments are removed (`https://foo.bar/a/../v1` → `https://foo.bar/v1/`). nil, empty, unparseable (no
    /// scheme, or not a valid absolute URL, e.g. `"http://[bad"`, `"not a url"`) or unusable (a port out of range)
    /// gives nil.
    static func serviceBaseURL(_ string: String?) -> URL? {
        guard let string, var parts = Parts(parsing: string), parts.scheme != nil, parts.isUsable else {
            return nil
        }
        parts.lowercaseSchemeAndHost()
        parts.path = removingDotSegments(parts.path)
        if !parts.path.hasSuffix("/") { parts.path += "/" }
        parts.fragment = nil
        return parts.url
    }

    /// D3: `serviceBaseURL(_:)` for a `URL`, read through its `absoluteString`.
    static func serviceBaseURL(_ url: URL?) -> URL? {
        serviceBaseURL(url?.absoluteString)
    }

    /// D5 D7 D8 D9: the URL of `path` under `base`. The path is appended to the base path with a joining slash
    /// (leading slash optional, trailing slash kept, `""` → the base itself, or the base with a slash added when
    /// it has none, as `resource(baseURL:path:)` needs); path characters are percent-escaped (`?foo=bar` →
    /// `%3Ffoo=bar`, `%3F` → `%253F`, non-ASCII → UTF-8 percent-encoding); the base's query is carried over
    /// (`https://foo.bar/v1?a=b&x=y` + `baz` → `https://foo.bar/v1/baz?a=b&x=y`), as is any fragment.
    ///
    /// W3: nil when the path has a `.` or `..` segment (`../x`, `a/./b`, `a/..`): it is neither navigation nor
    /// text here. Escaped (`%2E%2E`) it would still climb for every reader that decodes before removing dot
    /// segments; kept literally, URLSession on Linux would resolve it before sending. `...`, `.x` and `%2E` (which
    /// is escaped again, as `%252E`) are ordinary text.
    ///
    /// The same arithmetic as `child(of:_:)`, so `resource("/a").child("b")` and `resource("/a/b")` agree.
    static func resourceURL(base: URL, path: String) -> URL? {
        // By bytes, not Characters: a "/" followed by a combining mark is still a leading slash.
        let subpath =
            path.utf8.first == UInt8(ascii: "/") ? String(decoding: path.utf8.dropFirst(), as: UTF8.self) : path
        guard !hasDotSegment(subpath) else { return nil }
        return appending(percentEscaped(subpath, allowing: isPathByte), to: base)
    }

    /// D10 D11: a URL given by the user, kept as it is written apart from what does not change what is sent:
    /// scheme and host are lowercased, dot segments are removed (`https://foo.com/a/../b` → `https://foo.com/b`,
    /// which is what URLSession sends on Linux; also after a bare authority, `//host/a/../b`) and an `http(s)`
    /// URL's empty path becomes `/`. A relative path such as `./foo` is kept as-is: it is the user's business.
    /// nil, empty, unparseable (`http://[URL syntax error]`, `"\0"`) or unusable (`http://foo.com:70000/`) gives
    /// nil.
    static func absoluteURL(_ string: String?) -> URL? {
        guard let string, !string.isEmpty, var parts = Parts(parsing: string), parts.isUsable else {
            return nil
        }
        parts.lowercaseSchemeAndHost()
        // A relative path (`./foo`) is kept; one under an authority (`//host/a/../b`) names a path on that host.
        if parts.scheme != nil || parts.authority != nil {
            parts.path = removingDotSegments(parts.path)
            parts.giveEmptyHTTPPathASlash()
        }
        return parts.url
    }

    /// D10 D11: `absoluteURL(_:)` for a `URL`, read through its `absoluteString`, so that a URL made by Foundation
    /// gets the same rules as a string: dot segments removed, an unusable port or host refused.
    static func absoluteURL(_ url: URL?) -> URL? {
        absoluteURL(url?.absoluteString)
    }

    /// C2 C3 C4 W3: `url`'s path with `subpath` appended, a joining slash inserted if needed. `child("")` and
    /// `child("/")` → `…/a/b/`; `child("c")` and `child("/c")` → `…/a/b/c`. Never resolves `./` or `../`: a
    /// subpath with a dot segment gives nil (see `resourceURL(base:path:)`), so a child is always below `url`;
    /// `//host/c` and `ftp://host/c` are plain path text (double slash preserved); percent-escapes `?foo` →
    /// `%3Ffoo`, space and Unicode → UTF-8 percent-encoding.
    ///
    /// Only the path changes: the query of `url` is kept, like the service base's query that D8 carries to
    /// every resource, so that `resource("/foo").child("bar")` is the same URL as `resource("/foo/bar")` (D12)
    /// even when the base has a query (an API key, say). A fragment is kept for the same reason.
    static func child(of url: URL, _ subpath: String) -> URL? {
        resourceURL(base: url, path: subpath)
    }

    /// `url` with exactly one more path segment, `segment`, whatever it holds: every byte but letters, digits,
    /// `-`, `.`, `_` and `~` is percent-escaped (`/`, `?`, `#`, `%`, `;` included). The query and fragment of
    /// `url` are kept, as by `child(of:_:)`.
    ///
    /// nil for an empty segment: it would name `url`'s directory (`…/users/`), not a child, and an empty value
    /// from user input is more likely a mistake than a request for the collection. nil for `.` and `..` too (W3):
    /// they name `url` or its parent, never a child, in any form a server may decode.
    static func child(of url: URL, segment: String) -> URL? {
        guard !segment.isEmpty, !isDotSegment(segment.utf8) else { return nil }
        return appending(percentEscaped(segment, allowing: isUnreserved), to: url)
    }

    /// `base` with `escapedPath` (already escaped) appended to its path, a joining slash inserted if needed.
    private static func appending(_ escapedPath: String, to base: URL) -> URL? {
        var parts = Parts(splitting: base.absoluteString)
        parts.lowercaseSchemeAndHost()
        // A base from outside (`resource(absoluteURL:)` with a `URL`) may still hold dot segments.
        if parts.scheme != nil && hasDotSegment(parts.path) {
            parts.path = removingDotSegments(parts.path)
        }
        if !parts.path.hasSuffix("/") { parts.path += "/" }
        parts.path += escapedPath
        return parts.url
    }

    /// C6 C7 C8: resolves `href` against `url` like an HTML href (RFC 3986 section 5, strict): `../c` →
    /// `…/v1/c`; `../../c` → `https://zingle.frotz/c`; `../c/../d` → `…/v1/d`; `/c` → host root;
    /// `//other.host/c` → `https://other.host/c`; `ftp://other.host/c` stays absolute; `?foo=1` keeps the path
    /// and replaces the query; `c?foo=1` → `…/a/c?foo=1`; the given param order is kept (no sorting) and
    /// duplicate keys are allowed. The result has `href`'s fragment, never `url`'s.
    ///
    /// nil when `href` is not a valid URI reference (`http://[bad`, a space, `%zz`), when it is relative and
    /// `url` has no scheme to resolve against, or when the result is unusable (`http://foo.com:70000/`).
    package static func relative(to url: URL, _ href: String) -> URL? {
        guard let reference = Parts(parsing: href) else { return nil }
        let base = Parts(splitting: url.absoluteString)
        guard reference.scheme != nil || base.scheme != nil else { return nil }
        var target = resolve(reference, against: base)
        guard target.isUsable else { return nil }
        target.lowercaseSchemeAndHost()
        target.giveEmptyHTTPPathASlash()
        return target.url
    }

    /// C11–C17: `url` with query parameter `name` set to `value`: `?foo=bar`; names and values are escaped
    /// (`=` → `%3D`, space → `%20`, `+` → `%2B`, `&` → `%26`, `#` → `%23`, non-ASCII → UTF-8); **all** params
    /// are re-sorted by name (new and existing, compared by UTF-8 bytes after decoding, so `Z` sorts before
    /// `a`); `""` gives a bare key (`?foo&zoogle=oogle`); nil removes the param, and removing the last one
    /// removes the `?` entirely. Existing params keep their exact text; every param with the same decoded
    /// name is replaced. Path and fragment are kept.
    static func withParam(_ url: URL, _ name: String, _ value: String?) -> URL {
        withParams(url, [name: value])
    }

    /// C17: sequential `withParam(_:_:_:)` for each pair (the result is sorted; nil removes).
    static func withParams(_ url: URL, _ params: [String: String?]) -> URL {
        var parts = Parts(splitting: url.absoluteString)
        parts.lowercaseSchemeAndHost()
        for (name, value) in params {
            parts.query = query(parts.query, settingParam: name, to: value)
        }
        return parts.url ?? url
    }
}
