import Testing

@testable import Repose
@testable import ReposeTestSupport

@Suite("Page book: the pages a list holds and the items they show")
struct PageBookTests {
    final class Tag {
        let name: String
        init(_ name: String) { self.name = name }
    }

    typealias Book = PageBook<Tag, Int>

    let tags = (0..<6).map { Tag("p\($0)") }

    func page(_ number: Int, _ items: [Int], next: Bool = true) -> Book.Page {
        Book.Page(handle: tags[number], number: number, items: items, next: next ? tags[number + 1] : nil)
    }

    func names(_ handles: [Tag]) -> [String] { handles.map(\.name) }

    @Test("pages append in order and their items read as one collection")
    func append() {
        let book = Book(maximumPageCount: nil, filter: nil)
        book.append(page(0, [1, 2, 3]))
        book.append(page(1, []))
        book.append(page(2, [4, 5]))
        #expect(Array(book.items) == [1, 2, 3, 4, 5])
        #expect(book.items[3] == 4 && book.items.count == 5)
        #expect(book.pages.map(\.number) == [0, 1, 2])
    }

    @Test("L6 past the maximum page count the oldest pages are dropped as new ones arrive")
    func maximumPageCount() {
        let book = Book(maximumPageCount: 2, filter: nil)
        #expect(book.append(page(0, [1])).isEmpty)
        #expect(book.append(page(1, [2])).isEmpty)
        #expect(names(book.append(page(2, [3]))) == ["p0"])
        #expect(Array(book.items) == [2, 3])
        #expect(book.pages.map(\.number) == [1, 2])
    }

    @Test("L6 a maximum below one holds one page")
    func maximumBelowOne() {
        let book = Book(maximumPageCount: 0, filter: nil)
        book.append(page(0, [1]))
        book.append(page(1, [2]))
        #expect(Array(book.items) == [2])
    }

    @Test("L7 with an id an item already shown is left out, within a page and across pages, at its first place")
    func deduplication() {
        let book = Book(maximumPageCount: nil, filter: DuplicateFilter.seenIDs { $0 })
        book.append(page(0, [1, 2, 3, 2]))
        book.append(page(1, [3, 4, 5]))
        #expect(Array(book.items) == [1, 2, 3, 4, 5])
    }

    @Test("L7 without an id duplicates stay")
    func noDeduplication() {
        let book = Book(maximumPageCount: nil, filter: nil)
        book.append(page(0, [1, 2]))
        book.append(page(1, [2, 3]))
        #expect(Array(book.items) == [1, 2, 2, 3])
    }

    @Test("L6 L7 an item left out as a duplicate shows again once the page that had it first is dropped")
    func dropRevealsDuplicate() {
        let book = Book(maximumPageCount: 2, filter: DuplicateFilter.seenIDs { $0 })
        book.append(page(0, [1, 2]))
        book.append(page(1, [2, 3]))
        #expect(Array(book.items) == [1, 2, 3])
        book.append(page(2, [4]))
        #expect(Array(book.items) == [2, 3, 4])
    }

    @Test("L5 starting over keeps one page and reports the others as dropped")
    func startOver() {
        let book = Book(maximumPageCount: nil, filter: DuplicateFilter.seenIDs { $0 })
        book.append(page(0, [1, 2]))
        book.append(page(1, [3, 4]))
        book.append(page(2, [5]))
        #expect(names(book.start(with: page(0, [0, 1]))) == ["p1", "p2"])
        #expect(Array(book.items) == [0, 1])
        #expect(names(book.start(with: nil)) == ["p0"])
        #expect(book.items.isEmpty && book.pages.isEmpty)
    }

    @Test("replacing a page drops the pages after it; replacing it with nothing drops it too")
    func replace() {
        let book = Book(maximumPageCount: nil, filter: nil)
        book.append(page(0, [1]))
        book.append(page(1, [2]))
        book.append(page(2, [3]))
        #expect(names(book.replace(at: 1, with: page(1, [9], next: false))) == ["p2"])
        #expect(Array(book.items) == [1, 9])
        #expect(book.last?.next == nil)
        #expect(names(book.replace(at: 1, with: nil)) == ["p1"])
        #expect(Array(book.items) == [1])
        #expect(book.replace(at: 5, with: nil).isEmpty)
    }

    @Test("a page without duplicates shares its array with the items shown")
    func sharesStorage() {
        let book = Book(maximumPageCount: nil, filter: DuplicateFilter.seenIDs { $0 })
        let items = Array(0..<100)
        book.append(page(0, items))
        let shown = book.items.chunks[0]
        items.withUnsafeBufferPointer { original in
            shown.withUnsafeBufferPointer { kept in #expect(original.baseAddress == kept.baseAddress) }
        }
    }

    @Test("paged items index, iterate and compare like an array, however they are split")
    func pagedItems() {
        var split = PagedItems([1, 2])
        split.append([])
        split.append([3])
        let whole: PagedItems = [1, 2, 3]
        #expect(split == whole)
        #expect(split.map { $0 * 2 } == [2, 4, 6])
        #expect(split.indices == 0..<3)
        #expect(split.last == 3)
        #expect(PagedItems<Int>().isEmpty)
    }
}
