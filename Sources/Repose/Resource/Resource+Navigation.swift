extension Resource {
    /// The resource at a subpath of this one, with a joining slash inserted if needed.
    ///
    /// The subpath is taken literally: `./`, `../`, `//` and `?` are escaped path text, never navigation.
    ///
    /// ```swift
    /// service.resource("/widgets").child("123").child("details")   // …/widgets/123/details
    /// ```
    public func child(_ subpath: String) -> Resource {
        core.resource(url: URLBuilding.child(of: url, subpath), source: subpath)
    }

    /// The resource at `href` resolved against this resource's URL, as a browser resolves a link: `..`, a leading
    /// `/` or `//`, a query, or a full URL all mean what they mean in HTML.
    public func relative(_ href: String) -> Resource {
        core.resource(url: URLBuilding.relative(to: url, href), source: href)
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
        core.resource(url: URLBuilding.withParam(url, name, value), source: nil)
    }

    /// This resource with several query parameters set at once; the same as calling ``withParam(_:_:)`` for each.
    public func withParams(_ params: [String: String?]) -> Resource {
        core.resource(url: URLBuilding.withParams(url, params), source: nil)
    }
}
