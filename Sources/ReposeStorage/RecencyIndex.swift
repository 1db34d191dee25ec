/// Which cache entries were used least recently, and how much room they take, kept so that every operation costs
/// the same however many entries there are (rule K4: eviction must not slow down as the cache grows).
///
/// A dictionary finds an entry's slot; the slots form a doubly linked list from least to most recently used, kept in
/// one array (freed slots are reused) so that touching an entry allocates nothing once the array has grown.
struct RecencyIndex {
    private struct Slot {
        var name: String
        var size: Int
        var older: Int?
        var newer: Int?
    }

    private var slots: [Slot] = []
    private var freeSlots: [Int] = []
    private var slotOfName: [String: Int] = [:]
    private var oldest: Int?
    private var newest: Int?

    /// The sum of every entry's size.
    private(set) var totalSize = 0

    /// How many entries there are.
    var count: Int { slotOfName.count }

    /// Records that `name`, now `size` bytes, was just used: it becomes the most recently used.
    mutating func touch(_ name: String, size: Int) {
        if let slot = slotOfName[name] {
            unlink(slot)
            totalSize += size - slots[slot].size
            slots[slot].size = size
            link(asNewest: slot)
            return
        }
        let slot: Int
        if let reused = freeSlots.popLast() {
            slot = reused
            slots[slot] = Slot(name: name, size: size)
        } else {
            slot = slots.count
            slots.append(Slot(name: name, size: size))
        }
        slotOfName[name] = slot
        totalSize += size
        link(asNewest: slot)
    }

    /// Records that `name` was used, keeping its size; nothing happens for an unknown name.
    mutating func touch(_ name: String) {
        guard let slot = slotOfName[name] else { return }
        touch(name, size: slots[slot].size)
    }

    /// Forgets `name`.
    mutating func remove(_ name: String) {
        guard let slot = slotOfName.removeValue(forKey: name) else { return }
        unlink(slot)
        totalSize -= slots[slot].size
        slots[slot].name = ""
        freeSlots.append(slot)
    }

    /// Removes and returns the least recently used entries until at most `maximumCount` entries of at most
    /// `maximumSize` bytes in all remain, oldest first.
    mutating func evict(toFit maximumSize: Int, maximumCount: Int) -> [String] {
        var evicted: [String] = []
        while totalSize > maximumSize || count > maximumCount, let slot = oldest {
            let name = slots[slot].name
            remove(name)
            evicted.append(name)
        }
        return evicted
    }

    /// The names from least to most recently used. For tests and logs: it costs one step per entry.
    var namesByRecency: [String] {
        var names: [String] = []
        var cursor = oldest
        while let slot = cursor {
            names.append(slots[slot].name)
            cursor = slots[slot].newer
        }
        return names
    }

    private mutating func unlink(_ slot: Int) {
        let (older, newer) = (slots[slot].older, slots[slot].newer)
        if let older { slots[older].newer = newer } else { oldest = newer }
        if let newer { slots[newer].older = older } else { newest = older }
        slots[slot].older = nil
        slots[slot].newer = nil
    }

    private mutating func link(asNewest slot: Int) {
        slots[slot].older = newest
        slots[slot].newer = nil
        if let newest { slots[newest].newer = slot } else { oldest = slot }
        newest = slot
    }
}
