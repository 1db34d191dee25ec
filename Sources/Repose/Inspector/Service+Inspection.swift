import Foundation

extension Service {
    /// A snapshot of every live resource of this service, for debugging: URL, state, age, freshness, observers,
    /// requests in flight, latest error, ETag and content size.
    ///
    /// It reads what the resources already know and changes nothing: no load, no cache read, no observer pruned.
    /// Print it for a table, or read its ``ServiceSnapshot/resources``:
    ///
    /// ```swift
    /// print(api.inspect())
    /// let failing = api.inspect().resources.filter(\.hasError).map(\.url)
    /// ```
    ///
    /// - Returns: The resources alive now, ordered by URL, with the service's clock reading.
    public func inspect() -> ServiceSnapshot {
        let now = core.now()
        let resources = resourceTable.allResources.map { ResourceSnapshot($0, now: now) }
        return ServiceSnapshot(time: now, resources: resources.sorted { $0.url < $1.url })
    }
}
