extension Resource {
    /// Replaces ``latestData`` with `entity` as given, without the network or the transformer pipeline, and clears
    /// ``latestError``. An entity made without a timestamp is stamped with the service's clock. Observers receive
    /// ``ResourceEvent/newData(_:)`` with `.localOverride`.
    ///
    /// Use it for incremental updates, when you know what the server now holds. For a change that should last only
    /// until a write ends, use an ``OptimisticChange`` with ``request(_:showing:on:headers:options:requestMutation:)``: it rolls
    /// back on its own. With optimistic changes pending, the entity replaces the data beneath them, and they stay on
    /// top.
    ///
    /// The next load asks the server for its full data, without the old data's `ETag` or `Last-Modified`: a
    /// 304 Not Modified must not keep a local edit in place of what the server holds.
    ///
    /// A persistent cache forgets its entry for this resource, so that a relaunch does not bring back the data this
    /// replaced; the override itself is not stored.
    public func overrideLocalData(with entity: Entity<Any>) {
        removeCachedEntries()
        apply(.overridden(stamped(entity)))
    }

    /// `entity`, stamped with the service's clock if it never was (rule W8): an entity made by hand has the
    /// initialiser's default timestamp, 0, and would otherwise count as written in 1970, so stale at once. It is new
    /// as of now, as the original library has it.
    func stamped(_ entity: Entity<Any>) -> Entity<Any> {
        guard entity.timestamp == 0 else { return entity }
        var entity = entity
        entity.timestamp = core.now()
        return entity
    }

    /// Replaces only the content of ``latestData``, keeping its content type and headers, stamped with the current
    /// time. Without existing data, the content type is `application/binary`.
    public func overrideLocalContent(with content: Any) {
        var entity = record.serverData ?? Entity<Any>(content: content, contentType: "application/binary")
        entity.content = content
        entity.timestamp = core.now()
        overrideLocalData(with: entity)
    }

    /// Marks the data stale, so the next ``loadIfNeeded()`` loads. Nothing is sent now, and ``latestData`` and
    /// ``latestError`` stay as they are. The next completed load or local override clears the mark.
    public func invalidate() {
        apply(.invalidated)
        refreshStateFeeds()  // no observer event, but state subscribers see the data turn stale (rule R7)
    }

    /// Returns the resource to its pristine state: cancels every request in flight, and clears ``latestData`` and
    /// ``latestError``. Observers receive ``ResourceEvent/newData(_:)`` with `.wipe`.
    ///
    /// Persistent caches forget their entry for this resource before any later read can see it, so wiping on
    /// log-out leaves nothing of it on disk.
    public func wipe() {
        removeCachedEntries()
        for request in allRequests + loadRequests {
            request.cancel()
        }
        requests.loads.removeAll()
        cacheCheck = .notStarted  // as if newly created: the next use reads the cache again
        apply(.wiped)
    }
}
