/// A table of values by resource key that splits into 256 ``SlotTable``s, by the key's hash, once it is large.
///
/// One table of a million resources is far larger than the processor's cache, and each time it grows it moves
/// every entry to a random place in a new one: a cache and TLB miss per entry, so a resource cost several times
/// more to create in a table of a million than of a thousand. A shard is a 256th of that, and grows while it fits
/// in the cache. Small tables stay one: 256 small ones would add allocations to a new path's first lookup.
struct ShardedTable<Value> {
    private var shards: [SlotTable<Value>] = [SlotTable()]
    /// How many of the hash's top bits pick the shard: 0 (one shard) or 8 (256).
    private var shardBits: UInt = 0
    private(set) var count = 0

    /// Past this many entries the table splits: one table then spans about 1 MB.
    private static var splitCount: Int { 1 << 14 }

    subscript(key: ResourceKey) -> Value? {
        get { shards[shard(of: key)][key] }
        set {
            if let newValue {
                if shards[shard(of: key)].updateValue(newValue, forKey: key) == nil {
                    count += 1
                    if count > Self.splitCount, shardBits == 0 { split() }
                }
            } else {
                removeValue(forKey: key)
            }
        }
    }

    @discardableResult
    mutating func removeValue(forKey key: ResourceKey) -> Value? {
        let removed = shards[shard(of: key)].removeValue(forKey: key)
        if removed != nil { count -= 1 }
        return removed
    }

    /// Removes `value` if it is what `key` holds; returns whether it was. Holds no reference to it afterwards.
    mutating func remove(_ value: Value, forKey key: ResourceKey) -> Bool where Value: AnyObject {
        guard shards[shard(of: key)].remove(value, forKey: key) else { return false }
        count -= 1
        return true
    }

    mutating func removeAll() {
        shards = [SlotTable()]
        shardBits = 0
        count = 0
    }

    /// A place in the table, for walking it a step at a time while it changes: entries added or moved meanwhile
    /// may be missed, or met twice, in one round.
    struct Cursor {
        fileprivate var shard = 0
        fileprivate var slot = 0
    }

    /// The next value from `cursor` on, in slot order, starting over at the end; moves `cursor` past it. Looks at
    /// a bounded number of slots: nil when they were all empty (the cursor then goes on from there next time).
    func value(after cursor: inout Cursor) -> Value? {
        guard count > 0 else { return nil }
        var budget = 64
        while budget > 0 {
            if cursor.shard >= shards.count { cursor = Cursor() }
            if let (slot, value) = shards[cursor.shard].value(from: cursor.slot, budget: &budget) {
                cursor.slot = slot + 1
                return value
            }
            cursor.shard += 1
            cursor.slot = 0
        }
        return nil
    }

    /// Every key and value, shard by shard.
    var entries: some Sequence<(key: ResourceKey, value: Value)> {
        shards.lazy.flatMap(\.entries)
    }

    private func shard(of key: ResourceKey) -> Int {
        // A shift by 64 gives 0: one shard.
        Int(UInt(bitPattern: key.textHash) >> (64 - shardBits))
    }

    private mutating func split() {
        let whole = shards[0]
        shardBits = 8
        shards = Array(repeating: SlotTable(), count: 1 << shardBits)
        for index in shards.indices {
            shards[index].reserveCapacity(2 * whole.count >> shardBits)
        }
        for (key, value) in whole.entries {
            shards[shard(of: key)].updateValue(value, forKey: key)
        }
    }
}
