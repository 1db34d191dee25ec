/// The values of one `zip` input that wait for a partner: a ring buffer that holds at most `limit` values and drops
/// the oldest beyond it (S16).
///
/// It grows as needed up to `limit` and keeps its room afterwards, so that values passing through a zip whose
/// inputs keep pace cost no allocation.
@usableFromInline
struct ZipQueue<Element> {
    @usableFromInline var storage: ContiguousArray<Element?> = []
    @usableFromInline var head = 0
    @usableFromInline var count = 0
    @usableFromInline let limit: Int

    /// - Parameter limit: The most values kept; at least one.
    @inlinable
    init(limit: Int) {
        self.limit = max(limit, 1)
    }

    var isEmpty: Bool { count == 0 }

    /// Appends `element`, dropping the oldest value if the queue is full.
    @inlinable
    mutating func append(_ element: Element) {
        if count == limit {
            storage[head] = element
            head = head + 1 == storage.count ? 0 : head + 1
            return
        }
        if count == storage.count { grow() }
        var tail = head + count
        if tail >= storage.count { tail -= storage.count }
        storage[tail] = element
        count += 1
    }

    /// Removes and returns the oldest value.
    @inlinable
    mutating func popFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = storage[head]
        storage[head] = nil
        head = head + 1 == storage.count ? 0 : head + 1
        count -= 1
        return element
    }

    /// Doubles the room (up to `limit`), keeping the values in order.
    @usableFromInline
    mutating func grow() {
        let capacity = min(limit, max(4, storage.count * 2))
        var grown = ContiguousArray<Element?>(repeating: nil, count: capacity)
        for offset in 0..<count {
            grown[offset] = storage[(head + offset) % storage.count]
        }
        storage = grown
        head = 0
    }
}
