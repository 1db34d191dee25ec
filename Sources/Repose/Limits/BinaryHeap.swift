/// A binary min-heap: insert and remove the smallest element in O(log n).
struct BinaryHeap<Element: Comparable> {
    private(set) var elements: [Element] = []

    init() {}

    /// A heap of `elements`, in any order; O(n).
    init(_ elements: [Element]) {
        self.elements = elements
        for index in stride(from: elements.count / 2 - 1, through: 0, by: -1) {
            siftDown(from: index)
        }
    }

    var count: Int { elements.count }
    var top: Element? { elements.first }

    mutating func insert(_ element: Element) {
        elements.append(element)
        var child = elements.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard elements[child] < elements[parent] else { return }
            elements.swapAt(child, parent)
            child = parent
        }
    }

    mutating func removeTop() {
        guard !elements.isEmpty else { return }
        elements.swapAt(0, elements.count - 1)
        elements.removeLast()
        siftDown(from: 0)
    }

    private mutating func siftDown(from start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < elements.count, elements[left] < elements[smallest] { smallest = left }
            if right < elements.count, elements[right] < elements[smallest] { smallest = right }
            guard smallest != parent else { return }
            elements.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
