import Foundation

extension Service {
    /// Wipes every live resource that matches `pattern`: see ``Resource/wipe()``.
    ///
    /// Handy on logout, to forget what one user could see:
    ///
    /// ```swift
    /// service.wipeResources(matching: "/me/**")
    /// ```
    ///
    /// - Parameter pattern: A glob, a regular expression or a resource, as for
    ///   ``configure(_:requestMethods:description:_:)``.
    public func wipeResources(matching pattern: any ConfigurationPatternConvertible) {
        wipeResources(withURLsMatching: pattern.configurationPattern(for: self))
    }

    /// Wipes every live resource whose URL satisfies `predicate`.
    public func wipeResources(withURLsMatching predicate: (URL) -> Bool) {
        wipeResources { predicate($0.url) }
    }

    /// Wipes every live resource for which `predicate` is true; all of them by default.
    ///
    /// Resources the service has already released hold nothing and are not recreated.
    public func wipeResources(_ predicate: (Resource) -> Bool = { _ in true }) {
        for resource in resourceCache.allResources where predicate(resource) {
            resource.wipe()
        }
    }
}
