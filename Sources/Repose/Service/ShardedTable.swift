/// A table of values by resource key that splits into 256 dictionaries, by the key's hash, once it is large.
///
/// One dictionary of a million resources is 64 MB of buckets, and each time it grows it moves every entry to a
/// random place in a new one: a cache and TLB miss per entry, 0.36 µs per resource created at a million against
/// 0.06 µs at a thousand. A shard is a 256th of that, and grows while it fits in the processor's cache. Small
/// tables stay one dictionary: 256 small ones cost a new path's first lookup 10 % more in allocations.
struct ShardedTable<Value> {
    private var shards: [[ResourceKey: Value]] = [[:]]
    /// How many of the hash's top bits pick the shard: 0 (one shard) or 8 (256).
    private var shardBits: UInt = 0
    private(set) var count = 0

    /// Past this many entries the table splits: one dictionary then spans about 700 KB.
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

    mutating func removeAll() {
        shards = [[:]]
        shardBits = 0
        count = 0
    }

    /// Every key and value, shard by shard.
    var entries: some Sequence<(key: ResourceKey, value: Value)> {
        shards.lazy.joined()
    }

    private func shard(of key: ResourceKey) -> Int {
        // A shift by 64 gives 0: one shard.
        Int(UInt(bitPattern: key.textHash) >> (64 - shardBits))
    }

    private mutating func split() {
        let whole = shards[0]
        shardBits = 8
        shards = Array(repeating: [:], count: 1 << shardBits)
        for index in shards.indices {
            shards[index].reserveCapacity(2 * whole.count >> shardBits)
        }
        for (key, value) in whole {
            shards[shard(of: key)][key] = value
        }
    }
}
