import Foundation

extension Service {
    /// Forgets everything: wipes every live resource (see ``Resource/wipe()``) and empties every persistent cache
    /// the service's configuration uses, entries of resources no longer in memory and from earlier launches
    /// included. This is log-out.
    ///
    /// ```swift
    /// func logOut() {
    ///     service.wipeResources()
    ///     service.configure { $0.headers["Authorization"] = nil }
    /// }
    /// ```
    ///
    /// The caches' removals are queued before this returns, so no later read through this service sees them.
    public func wipeResources() {
        core.removeCachedEntities(forURLsMatching: nil)  // first: a wiped resource's observers may read again
        core.writes.outbox?.removeWrites { _ in true }  // no write of this user goes out with the next one's
        wipeResources({ _ in true })
    }

    /// Wipes every live resource that matches `pattern` (see ``Resource/wipe()``), and removes the matching entries
    /// of every persistent cache, including those of resources no longer in memory.
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
        let matches = pattern.configurationPattern(for: self)
        core.removeCachedEntities(forURLsMatching: matches)
        core.writes.outbox?.removeWrites(where: matches)
        wipeResources({ matches($0.url) })
    }

    /// Wipes every live resource whose URL satisfies `predicate`, and removes the matching entries of every
    /// persistent cache. For the caches, `predicate` runs on their work queues, off the main actor.
    public func wipeResources(withURLsMatching predicate: @escaping @Sendable (URL) -> Bool) {
        core.removeCachedEntities(forURLsMatching: predicate)
        wipeResources({ predicate($0.url) })
    }

    /// Wipes every live resource for which `predicate` is true. Persistent caches lose the entries of the resources
    /// wiped; to reach resources no longer in memory, wipe by URL pattern.
    public func wipeResources(_ predicate: (Resource) -> Bool) {
        for resource in resourceTable.allResources where predicate(resource) {
            resource.wipe()
        }
    }
}
