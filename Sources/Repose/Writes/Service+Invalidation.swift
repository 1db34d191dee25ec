extension Service {
    /// Marks every live resource that matches `pattern` as stale, keeping its data: observed ones reload at the end
    /// of the current main-actor turn, once each, and the others on their next ``Resource/loadIfNeeded()`` (rule
    /// M7).
    ///
    /// Call it after a write whose effect on other resources the app knows, or for what the server changed behind
    /// the app's back; ``Configuration/invalidation`` does it after every successful write to a URL pattern:
    ///
    /// ```swift
    /// api.invalidateResources(matching: "/users/**")
    /// ```
    ///
    /// - Parameter pattern: A glob, a regular expression or a resource, as for
    ///   ``configure(_:requestMethods:description:_:)``.
    public func invalidateResources(matching pattern: any ConfigurationPatternConvertible) {
        let matches = pattern.configurationPattern(for: self)
        invalidateResources { matches($0.url) }
    }

    /// Marks every live resource for which `predicate` is true as stale, as ``invalidateResources(matching:)``
    /// does.
    public func invalidateResources(_ predicate: (Resource) -> Bool) {
        for resource in resourceTable.allResources where predicate(resource) {
            resource.invalidateForWrite()
        }
    }
}
