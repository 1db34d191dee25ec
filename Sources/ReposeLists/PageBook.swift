import Repose

/// The pages a list holds and the items they show, in order: appending a page, starting over, replacing a page
/// (which drops the ones after it), the maximum page count (L6) and leaving out items already shown (L7).
///
/// Pure bookkeeping: pages are opaque handles (resources, in a ``PagedList``), so the rules are testable without a
/// service. Appending costs the new page's items, not the items already held: ``items`` keeps each page's items as
/// they are, and with an id only the new page's items are checked against the ids seen so far. Starting over,
/// replacing a page or dropping the oldest page recomputes what is shown.
final class PageBook<Handle: AnyObject, Item> {
    /// One page: its handle, its place in the chain from the first page, its items and the page after it.
    struct Page {
        let handle: Handle
        /// 0 for the first page of the chain, 1 for the next one, and so on (dropping pages does not renumber).
        let number: Int
        var items: [Item]
        var next: Handle?
    }

    /// The pages held, oldest first.
    private(set) var pages: [Page] = []
    /// What the pages show: their items, without those already shown by an earlier page when there is an id.
    private(set) var items = PagedItems<Item>()
    /// The most pages held at once; `nil` for no limit.
    let maximumPageCount: Int?
    private let filter: DuplicateFilter<Item>?

    init(maximumPageCount: Int?, filter: DuplicateFilter<Item>?) {
        self.maximumPageCount = maximumPageCount.map { max(1, $0) }
        self.filter = filter
    }

    /// The last page held.
    var last: Page? { pages.last }

    /// Where `handle` is among the pages held, looking at the first `limit` pages only when given.
    func index(of handle: Handle, before limit: Int? = nil) -> Int? {
        for index in 0..<min(limit ?? pages.count, pages.count) where pages[index].handle === handle {
            return index
        }
        return nil
    }

    /// Whether `handle` is among the pages held.
    func contains(_ handle: Handle) -> Bool {
        index(of: handle) != nil
    }

    /// Adds a page at the end; past the maximum page count, drops the oldest pages.
    ///
    /// - Returns: The handles of the pages dropped.
    @discardableResult
    func append(_ page: Page) -> [Handle] {
        pages.append(page)
        if let maximumPageCount, pages.count > maximumPageCount {
            let dropped = pages.prefix(pages.count - maximumPageCount).map(\.handle)
            pages.removeFirst(dropped.count)
            recompute()
            return dropped
        }
        items.append(filter?.admit(page.items) ?? page.items)
        return []
    }

    /// Holds only `page` from now on.
    ///
    /// - Returns: The handles of the other pages, dropped.
    @discardableResult
    func start(with page: Page?) -> [Handle] {
        replace(at: 0, with: page)
    }

    /// Gives the page at `index` new items and a new next page, and drops the pages after it: they followed the
    /// page's old content; `page` has the handle of the page it replaces. With no `page`, drops the page at `index`
    /// too.
    ///
    /// - Returns: The handles of the pages dropped.
    @discardableResult
    func replace(at index: Int, with page: Page?) -> [Handle] {
        guard index >= 0, index <= pages.count else { return [] }
        let dropped = pages[index...].map(\.handle).filter { $0 !== page?.handle }
        pages.removeSubrange(index...)
        if let page { pages.append(page) }
        recompute()
        return dropped
    }

    /// Rebuilds ``items`` from the pages held.
    private func recompute() {
        filter?.forget()
        var rebuilt = PagedItems<Item>()
        for page in pages {
            rebuilt.append(filter?.admit(page.items) ?? page.items)
        }
        items = rebuilt
    }
}

/// Leaves out items whose id was seen before (L7).
///
/// Two closures over one set of ids, formed by ``seenIDs(_:)`` where the app names the id: that code is inlined into
/// the app's module and compiled for its item and id types, so each item costs a specialised hash and insert.
/// Generic code in Repose would hash every item through witness tables, at several times the cost.
@usableFromInline
final class DuplicateFilter<Item> {
    /// The items of a page whose id has not been seen, in order; remembers their ids. Returns the array itself (the
    /// same storage) when all are new.
    let admit: ([Item]) -> [Item]
    /// Forgets every id seen.
    let forget: () -> Void

    @usableFromInline
    init(admit: @escaping ([Item]) -> [Item], forget: @escaping () -> Void) {
        self.admit = admit
        self.forget = forget
    }

    /// A filter that remembers the ids `id` gives in a `Set`.
    @inlinable
    static func seenIDs<ID: Hashable>(_ id: @escaping (Item) -> ID) -> DuplicateFilter {
        var seen = Set<ID>()
        return DuplicateFilter(
            admit: { items in
                var kept: [Item]?
                for index in items.indices {
                    if seen.insert(id(items[index])).inserted {
                        kept?.append(items[index])
                    } else if kept == nil {
                        kept = Array(items[..<index])
                    }
                }
                return kept ?? items
            },
            forget: { seen.removeAll(keepingCapacity: true) })
    }
}
