import Foundation

extension Resource {
    /// Makes stale what a successful request with `method` changed, by the request's own `scope` or else the
    /// configuration's ``Configuration/invalidation`` (rule M6); observed resources among them reload at the end
    /// of the turn.
    func invalidateAfterWrite(_ method: RequestMethod, scope: InvalidationScope?) {
        let scope = scope ?? configuration(for: method).invalidation
        var stale: [Resource] = scope.target ? [self] : []
        if scope.parent {
            stale += URLBuilding.parentKeys(of: url).compactMap { core.resourceTable.resource(forKey: ResourceKey($0)) }
        }
        if !scope.others.isEmpty {
            let patterns = scope.others.map { URLPattern(glob: $0, baseURL: core.baseURL) }
            stale += core.resourceTable.allResources.filter { resource in
                patterns.contains { $0.matches(resource.url) }
            }
        }
        for resource in stale {
            resource.invalidateForWrite()
        }
    }

    /// Marks the data stale and reloads it at the end of the turn if it is observed (rules M6, M7).
    func invalidateForWrite() {
        invalidate()
        core.writes.reloadSoon(self)
    }
}

extension URLBuilding {
    /// The keys the parent collection of `url` may have: its URL without the last path segment, query and
    /// fragment, without and with a trailing slash (`…/users/42` → `…/users`, `…/users/`). None for a root.
    static func parentKeys(of url: URL) -> [String] {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return [] }
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        guard let lastSlash = path.lastIndex(of: "/") else { return [] }
        let parent = String(path[..<lastSlash])
        components.query = nil
        components.fragment = nil
        components.percentEncodedPath = parent
        let bare = parent.isEmpty ? nil : components.string
        components.percentEncodedPath = parent + "/"
        return [bare, components.string].compactMap { $0 }
    }
}
