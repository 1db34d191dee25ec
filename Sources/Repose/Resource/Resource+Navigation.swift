import Foundation

extension Resource {
    /// The resource at a subpath of this one, with a joining slash inserted if needed.
    ///
    /// The subpath is taken literally, slashes included: `?`, `#` and `%` are escaped path text. A subpath with a
    /// `.` or `..` segment is refused: the result is an invalid resource whose requests fail at once with
    /// ``RequestError/Cause/InvalidURL`` and a message naming the path, since no form of it is safe to send (a
    /// literal `..` is resolved before sending on Linux, and an escaped `%2E%2E` is read as `..` by many servers).
    /// Use ``relative(_:)`` to navigate. So a child is always below this one, and its ``url`` is the URL that is
    /// sent.
    ///
    /// ```swift
    /// service.resource("/widgets").child("123").child("details")   // …/widgets/123/details
    /// service.resource("/widgets").child("../admin")               // invalid: its loads fail with InvalidURL
    /// ```
    ///
    /// For one segment from user input, which must not add levels with a `/`, use ``child(segment:)``.
    public func child(_ subpath: String) -> Resource {
        derived(URLBuilding.child(of: url, subpath), source: subpath, reason: .forPath(subpath))
    }

    /// The resource exactly one path segment below this one, whatever `segment` holds: the safe way to put text
    /// from user input into a path.
    ///
    /// Every character but letters, digits, `-`, `.`, `_` and `~` is percent-encoded as UTF-8, `/`, `?`, `#`,
    /// `%` and `;` included. The server receives the text as one segment, and nothing the user types can reach
    /// another path, add a query or leave this resource. The query of this resource (from the base URL, say) is
    /// kept, as by ``child(_:)``.
    ///
    /// ```swift
    /// let users = service.resource("/users")
    /// users.child(segment: "ada")        // …/users/ada
    /// users.child(segment: "../admin")   // …/users/..%2Fadmin
    /// users.child(segment: "a b?c")      // …/users/a%20b%3Fc
    /// ```
    ///
    /// A segment that is empty, `.` or `..` names no child (this resource's directory, or a level above): the result
    /// is a resource whose requests fail at once with ``RequestError/Cause/InvalidURL``.
    public func child(segment: String) -> Resource {
        derived(URLBuilding.child(of: url, segment: segment), source: segment, reason: .forPath(segment))
    }

    /// The resource at `href` resolved against this resource's URL, as a browser resolves a link: `..`, a leading
    /// `/` or `//`, a query, or a full URL all mean what they mean in HTML.
    public func relative(_ href: String) -> Resource {
        derived(URLBuilding.relative(to: url, href), source: href)
    }

    /// ``relative(_:)`` when `href` is present, `nil` when it is not: handy for links read from a response.
    ///
    /// ```swift
    /// let owner = resource.optionalRelative(resource.jsonDict["owner"] as? String)
    /// ```
    public func optionalRelative(_ href: String?) -> Resource? {
        href.map(relative)
    }

    /// This resource with query parameter `name` set to `value`.
    ///
    /// An empty value gives a bare key (`?flag`); `nil` removes the parameter. All parameters are sorted by name,
    /// so the same parameters give the same resource in whatever order they were added.
    public func withParam(_ name: String, _ value: String?) -> Resource {
        derived(URLBuilding.withParam(url, name, value), source: nil)
    }

    /// This resource with several query parameters set at once; the same as calling ``withParam(_:_:)`` for each.
    public func withParams(_ params: [String: String?]) -> Resource {
        derived(URLBuilding.withParams(url, params), source: nil)
    }

    /// The resource at `derivedURL`, reached from this one; an invalid resource when it is `nil`. From a resource
    /// whose own URL is invalid, every navigation gives that same resource: its placeholder URL must not turn into
    /// a URL that looks valid and reaches the network.
    private func derived(
        _ derivedURL: @autoclosure () -> URL?, source: String?,
        reason: @autoclosure () -> InvalidURLReason = .unbuildable
    ) -> Resource {
        guard invalidURLSource == nil else { return self }
        return core.resource(url: derivedURL(), source: source, reason: reason())
    }
}
