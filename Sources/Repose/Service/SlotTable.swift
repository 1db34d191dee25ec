/// A table of values by resource key whose entries sit in one array of slots, found by linear probing from the
/// key's hash.
///
/// A dictionary keeps which buckets are taken, the keys and the values in three places: adding a key it does not
/// have reads the first and writes the other two, three cache misses once the table outgrows the cache. Here the
/// lookup that finds the free slot has already brought in the line the insert writes, so a new key costs one miss.
/// The key's own hash, computed once, places it, so nothing is hashed again as the table grows.
struct SlotTable<Value> {
    private struct Slot {
        var key: ResourceKey?
        var value: Value?
    }

    /// A power of two in size once anything was added; at most three quarters full, so a probe always ends.
    private var slots: [Slot] = []
    private(set) var count = 0

    private var mask: Int { slots.count - 1 }

    subscript(key: ResourceKey) -> Value? {
        guard count > 0, case (let index, true) = probe(key) else { return nil }
        return slots[index].value
    }

    /// Stores `value` for `key`; returns the value it replaced, if any.
    @discardableResult
    mutating func updateValue(_ value: Value, forKey key: ResourceKey) -> Value? {
        var index = 0
        if !slots.isEmpty {
            let found: Bool
            (index, found) = probe(key)
            if found {
                defer { slots[index].value = value }
                return slots[index].value
            }
        }
        if (count + 1) * 4 > slots.count * 3 {
            resize(to: max(8, slots.count * 2))
            index = probe(key).index
        }
        slots[index] = Slot(key: key, value: value)
        count += 1
        return nil
    }

    /// Removes `key`; returns its value, if it had one.
    @discardableResult
    mutating func removeValue(forKey key: ResourceKey) -> Value? {
        guard count > 0, case (let index, true) = probe(key) else { return nil }
        let removed = slots[index].value
        empty(index)
        return removed
    }

    /// Removes `value` if it is what `key` holds; returns whether it was. Holds no reference to it afterwards, so
    /// that the caller can tell whether anything else does.
    mutating func remove(_ value: Value, forKey key: ResourceKey) -> Bool where Value: AnyObject {
        guard count > 0, case (let index, true) = probe(key), slots[index].value === value else { return false }
        empty(index)
        return true
    }

    private mutating func empty(_ index: Int) {
        var hole = index
        slots[hole] = Slot()
        count -= 1
        // Backward shift instead of a tombstone: each later entry of the run moves into the hole if the hole lies
        // between its home slot and where it sits, so every probe still finds it and stops at the first empty slot.
        var index = (hole + 1) & mask
        while let home = slots[index].key.map({ $0.textHash & mask }) {
            if (index - home) & mask >= (index - hole) & mask {
                slots[hole] = slots[index]
                slots[index] = Slot()
                hole = index
            }
            index = (index + 1) & mask
        }
    }

    /// Makes room for `capacity` entries without growing again.
    mutating func reserveCapacity(_ capacity: Int) {
        var size = max(8, slots.count)
        while capacity * 4 > size * 3 { size *= 2 }
        if size > slots.count { resize(to: size) }
    }

    /// The first value in slot `start` or after it, with its slot; looks at no more than `budget` slots, and
    /// counts them off.
    func value(from start: Int, budget: inout Int) -> (slot: Int, value: Value)? {
        var index = start
        while index < slots.count, budget > 0 {
            budget -= 1
            if let value = slots[index].value { return (index, value) }
            index += 1
        }
        return nil
    }

    /// Every key and value, in slot order.
    var entries: some Sequence<(key: ResourceKey, value: Value)> {
        slots.lazy.compactMap { slot in
            guard let key = slot.key, let value = slot.value else { return nil }
            return (key, value)
        }
    }

    /// Where `key` sits, or the empty slot where it would go. Compares hashes first: the text of a key in another
    /// slot is not read (its storage is elsewhere in memory).
    private func probe(_ key: ResourceKey) -> (index: Int, found: Bool) {
        var index = key.textHash & mask
        while let hash = slots[index].key?.textHash {
            if hash == key.textHash, slots[index].key?.text == key.text { return (index, true) }
            index = (index + 1) & mask
        }
        return (index, false)
    }

    /// Moves every entry into a table of `size` slots. Moved, not copied: copying a slot retains its key's text
    /// and its value, and dropping the old table releases them, which touches every resource (a cache miss each,
    /// once the table outgrows the cache).
    private mutating func resize(to size: Int) {
        var old = slots
        slots = Array(repeating: Slot(), count: size)
        old.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for offset in buffer.indices {
                guard let hash = base[offset].key?.textHash else { continue }
                let entry = (base + offset).move()
                (base + offset).initialize(to: Slot())
                // Keys are distinct: the first empty slot from its home is this entry's place.
                var index = hash & mask
                while slots[index].key?.textHash != nil { index = (index + 1) & mask }
                slots[index] = entry
            }
        }
    }
}
