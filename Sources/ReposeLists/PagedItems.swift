import Repose

/// The items of a ``PagedList``: every loaded page's items, in order, as one random-access collection.
///
/// The items are kept page by page, so a new page is added without copying the items already shown, even while a
/// view still holds the previous snapshot. Index it like an array (from 0), iterate it, or make an array of it
/// with `Array(items)`.
///
/// ```swift
/// for repo in list.items { print(repo.name) }
/// let third = list.items[2]
/// ```
public struct PagedItems<Item>: RandomAccessCollection {
    /// Each page's items; pages without items are left out.
    private(set) var chunks: [[Item]]
    /// The index just past each chunk's last item: `ends[i]` is the item count of `chunks[0...i]`.
    private(set) var ends: [Int]

    /// A collection holding `items` as one page.
    ///
    /// - Parameter items: The items.
    public init(_ items: [Item] = []) {
        chunks = []
        ends = []
        append(items)
    }

    /// Adds a page's items at the end.
    mutating func append(_ items: [Item]) {
        guard !items.isEmpty else { return }
        chunks.append(items)
        ends.append((ends.last ?? 0) + items.count)
    }

    /// The position of the first item.
    public var startIndex: Int { 0 }

    /// The position after the last item: the number of items.
    public var endIndex: Int { ends.last ?? 0 }

    /// The item at `position`, which must be a valid index, as for an array.
    public subscript(position: Int) -> Item {
        let chunk = chunkIndex(containing: position)
        let start = chunk == 0 ? 0 : ends[chunk - 1]
        return chunks[chunk][position - start]
    }

    /// The first chunk whose end lies past `position` (binary search).
    private func chunkIndex(containing position: Int) -> Int {
        var low = 0
        var high = ends.count - 1
        while low < high {
            let middle = (low + high) / 2
            if ends[middle] > position { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// Iterates page by page, with no search per item.
    public func makeIterator() -> Iterator {
        Iterator(chunks: chunks)
    }

    /// Iterates the items of a ``PagedItems`` in order.
    public struct Iterator: IteratorProtocol {
        let chunks: [[Item]]
        var chunk = 0
        var offset = 0

        /// The next item, or `nil` after the last.
        public mutating func next() -> Item? {
            while chunk < chunks.count {
                if offset < chunks[chunk].count {
                    defer { offset += 1 }
                    return chunks[chunk][offset]
                }
                chunk += 1
                offset = 0
            }
            return nil
        }
    }
}

extension PagedItems: Equatable where Item: Equatable {
    /// Whether both hold equal items in the same order, however they are split into pages.
    public static func == (lhs: PagedItems, rhs: PagedItems) -> Bool {
        lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }
}

extension PagedItems: ExpressibleByArrayLiteral {
    /// A collection of the items listed, as one page.
    public init(arrayLiteral items: Item...) {
        self.init(items)
    }
}

extension PagedItems: Sendable where Item: Sendable {}
