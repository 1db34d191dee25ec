import Repose

/// A snapshot of a ``PagedList``: what a list view needs to draw itself.
///
/// Every change of the list (a page loading, arriving or failing) produces a new snapshot on ``PagedList/state``.
///
/// ```swift
/// repos.state.observe(owner: self) { screen, list in
///     screen.rows = Array(list.items)
///     screen.footer = list.isLoadingMore ? .spinner : list.hasMore ? .loadMoreButton : .end
///     screen.banner = list.latestError?.userMessage
/// }
/// ```
public struct PagedListState<Item> {
    /// The items of every page the list holds, in page order; with an item id, each item once (at its first
    /// position).
    public var items: PagedItems<Item>
    /// Whether there may be more to load: the first page has not been loaded yet, or the last page names a next
    /// one. ``PagedList/loadMore()`` does nothing when this is false.
    public var hasMore: Bool
    /// Whether one of the list's pages is loading: the first (a refresh or the first load) or the next one.
    public var isLoading: Bool
    /// Whether the page after the last one is loading, started by ``PagedList/loadMore()``.
    public var isLoadingMore: Bool
    /// The error of the latest page load that failed, if no page load of the list has succeeded since. A list made
    /// over a first page whose last load failed starts with that error.
    public var latestError: RequestError?
    /// How many pages the list holds now (fewer than were loaded when a maximum page count dropped some).
    public var pageCount: Int

    /// Creates a snapshot from its parts, for previews and tests.
    ///
    /// - Parameters:
    ///   - items: The items.
    ///   - hasMore: Whether more pages may exist.
    ///   - isLoading: Whether a page is loading.
    ///   - isLoadingMore: Whether the next page is loading.
    ///   - latestError: The latest page error.
    ///   - pageCount: The number of pages held.
    public init(
        items: PagedItems<Item> = [], hasMore: Bool = true, isLoading: Bool = false, isLoadingMore: Bool = false,
        latestError: RequestError? = nil, pageCount: Int = 0
    ) {
        self.items = items
        self.hasMore = hasMore
        self.isLoading = isLoading
        self.isLoadingMore = isLoadingMore
        self.latestError = latestError
        self.pageCount = pageCount
    }
}

// Checked by the compiler: the error is `Sendable` (its body is held in `ParsedContent`), and so are the items.
extension PagedListState: Sendable where Item: Sendable {}
