import Foundation
import Repose

/// A list that pages: the items of a chain of page resources, as one `State`.
///
/// Each page is an ordinary `Resource` of the service: shared, cached and revalidated like any other (L2). The
/// list owns no network code; it observes its pages, decodes each page once when its data arrives, and keeps a
/// ``PagedListState`` up to date. Make one with ``Repose/Service/pagedList(startingAt:items:nextPage:options:decoder:)``:
///
/// ```swift
/// repos = service.pagedList(startingAt: service.resource("/users/ada/repos"), items: [Repo].self)  // kept
/// repos.state.observe(owner: self) { screen, list in screen.show(list) }
/// repos.loadMore()   // the first page; each later call, the next one
/// repos.refresh()    // the first page again: one request, a 304 when nothing changed
/// ```
///
/// The list observes its pages for as long as it lives, so keep it (in a view model, say); its state stops
/// changing when it goes away, and its pages become releasable. Nothing loads by itself: call ``loadMore()``,
/// ``refresh()`` or ``loadIfNeeded()``, or observe ``autoloadingState()``.
@MainActor
public final class PagedList<Item> {
    /// The page the list starts at.
    public let firstPage: Resource
    let reader: PageReader<Item>
    let book: PageBook<Resource, Item>
    /// The page ``loadMore()`` or ``retry()`` is waiting for; not among the book's pages yet.
    var pending: Resource?
    /// The latest failed page load, until a page load of the list succeeds.
    var failure: (page: Resource, error: RequestError)?
    let storage: MutableState<PagedListState<Item>>

    init(startingAt firstPage: Resource, options: Options, reader: PageReader<Item>) {
        self.firstPage = firstPage
        self.reader = reader
        book = PageBook(maximumPageCount: options.maximumPageCount, filter: options.makeFilter?())
        storage = MutableState(PagedListState())
        observe(firstPage)
        if firstPage.latestData != nil { startOver() }
        // The first page's current error is the list's too, as it would be had the list seen the load fail (L3).
        if let error = firstPage.latestError { failure = (firstPage, error) }
        publish()
    }

    /// The list's state: its items, whether more pages exist, whether a page is loading, the latest page error
    /// (L3). Observing it replays the current snapshot, then delivers one after every change.
    ///
    /// Observing this state loads nothing; see ``autoloadingState()``.
    public var state: State<PagedListState<Item>> { storage.state }

    /// The resources of the pages the list holds, oldest first.
    public var pages: [Resource] { book.pages.map(\.handle) }

    /// What ``PagedList`` can be told when it is made.
    public struct Options {
        /// The most pages the list holds; when a new page would make more, the oldest pages are dropped (L6).
        /// `nil`, the default, for no limit.
        public var maximumPageCount: Int?
        @usableFromInline let makeFilter: (() -> DuplicateFilter<Item>)?

        /// Options without an item id: every item of every page is shown.
        ///
        /// - Parameter maximumPageCount: The most pages to hold, or `nil` for no limit.
        public init(maximumPageCount: Int? = nil) {
            self.maximumPageCount = maximumPageCount
            makeFilter = nil
        }

        /// Options with an item id: an item whose id an earlier item of the list has is left out, so an item that
        /// moved to a later page while the user scrolled shows once, at its first position (L7).
        ///
        /// ```swift
        /// options: .init(maximumPageCount: 20, id: \.id)
        /// ```
        ///
        /// - Parameters:
        ///   - maximumPageCount: The most pages to hold, or `nil` for no limit.
        ///   - id: The item's identity.
        @inlinable
        public init<ID: Hashable>(maximumPageCount: Int? = nil, id: @escaping (Item) -> ID) {
            self.maximumPageCount = maximumPageCount
            makeFilter = { DuplicateFilter.seenIDs(id) }
        }
    }

    /// Sends the current snapshot to the state's observers.
    func publish() {
        let isLoadingMore = pending?.isLoading ?? false
        storage.value = PagedListState(
            items: book.items,
            hasMore: book.last.map { $0.next != nil } ?? true,
            isLoading: isLoadingMore || firstPage.isLoading,
            isLoadingMore: isLoadingMore,
            latestError: failure?.error,
            pageCount: book.pages.count)
    }
}

/// Reads a page: its items, and the resource of the page after it.
struct PageReader<Item> {
    let read:
        @MainActor (Entity<Any>, _ page: Resource, _ firstPage: Resource, _ number: Int) throws -> (
            items: [Item], next: Resource?
        )
}
