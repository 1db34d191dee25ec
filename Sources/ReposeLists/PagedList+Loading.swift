import Foundation
import Repose

extension PagedList {
    /// Loads the next page: the first page while the list has none, else the page after the last one (L4).
    ///
    /// Starts at most one page load at a time: does nothing while a page of the list is loading, and nothing when
    /// there is no next page (``PagedListState/hasMore`` is false). A page whose data is fresh in the service (a
    /// page another screen loaded a moment ago) is added at once, without a request. After a page failed, it
    /// loads that page again once its error is older than the configuration's `retryTime`, so that a list loading
    /// more as the user scrolls does not hammer a failing server; before that it returns a request that has
    /// already failed with the page's error, saying why nothing was sent. ``retry()`` loads the page at once.
    ///
    /// - Returns: The load started or joined; the page's failure, while it is younger than `retryTime`; or `nil`
    ///   when nothing needed loading.
    @discardableResult
    public func loadMore() -> Request? {
        guard pending == nil, !firstPage.isLoading else { return nil }
        guard !book.pages.isEmpty else { return recentFailure(of: firstPage) ?? loadFirstPageIfNeeded() }
        guard let next = book.last?.next else { return nil }
        return recentFailure(of: next) ?? load(next, forcing: false)
    }

    /// A request already failed with `page`'s error, when `page` failed too recently to be loaded again.
    private func recentFailure(of page: Resource) -> Request? {
        guard let failure, failure.page === page, page.isUpToDate else { return nil }
        return Resource.failedRequest(returning: failure.error)
    }

    /// Loads the first page again, sending its ETag: the server answers 304 when nothing changed, and the list
    /// keeps every page it holds; on new content the list holds only the new first page, and the pages after it
    /// load again (from the network) when ``loadMore()`` asks for them (L5).
    ///
    /// - Returns: The load of the first page (the one in flight, if there is one).
    @discardableResult
    public func refresh() -> Request {
        firstPage.loadRequests.first ?? firstPage.load()
    }

    /// Loads the page whose load failed last, at once; does nothing when no page load failed.
    ///
    /// - Returns: The load started, or `nil`.
    @discardableResult
    public func retry() -> Request? {
        guard let failure else { return nil }
        if failure.page === firstPage { return refresh() }
        guard pending == nil else { return nil }
        return load(failure.page, forcing: true)
    }

    /// Loads the first page if its data is missing or stale (`Resource.loadIfNeeded()`); the later pages stay.
    ///
    /// - Returns: The load started or joined, or `nil` when the first page is fresh.
    @discardableResult
    public func loadIfNeeded() -> Request? {
        loadFirstPageIfNeeded()
    }

    /// The first page's `loadIfNeeded()`, with the list shown loading at once: a load that waits for the page's
    /// cache sends no event until the cache has been read, and the list is loading all the same.
    private func loadFirstPageIfNeeded() -> Request? {
        let request = firstPage.loadIfNeeded()
        if request != nil, !storage.value.isLoading { publish() }
        return request
    }

    /// Like ``state``, but observation drives loading: each time it gains its first observer, the list calls
    /// ``loadIfNeeded()``. Nothing loads while nobody observes it, and a page load under way when the last
    /// observer leaves goes on (its page stays in the service for the next time).
    ///
    /// ```swift
    /// subscription = repos.autoloadingState().observe { list in render(list) }
    /// ```
    ///
    /// - Returns: A state with the same snapshots as ``state``.
    public func autoloadingState() -> State<PagedListState<Item>> {
        let changes = Signal<PagedListState<Item>> { [weak self] send in
            guard let self else { return {} }
            // Load first: the new observer's replay, read right after connecting, shows the load under way.
            loadIfNeeded()
            let subscription = storage.state.signal.observe(send)
            return { subscription.cancel() }
        }
        return State(read: { [self] in storage.value }, changes: changes)
    }

    /// Makes `page` the page the list waits for, and loads it (`forcing`) or loads it if needed.
    private func load(_ page: Resource, forcing: Bool) -> Request? {
        pending = page
        observe(page)
        let request = forcing ? page.load() : page.loadIfNeeded()
        if request == nil {
            // Fresh in the service already: no event will come, so take its data now.
            pendingCompleted()
            publish()
        } else if !storage.value.isLoadingMore {
            publish()  // waiting for the page's cache sends no event yet, and the list is loading more all the same
        }
        return request
    }
}
