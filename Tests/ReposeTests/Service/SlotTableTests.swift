import Testing

@testable import Repose
@testable import ReposeTestSupport

@Suite("The service's table of resources keeps every entry findable")
struct SlotTableTests {
    /// A seeded stream of numbers, so that a failure replays.
    struct Numbers {
        var state: UInt64

        mutating func next(below bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    @Test("D12 random inserts, replacements and removals agree with a dictionary, through growth and backward shifts")
    func agreesWithADictionary() {
        var numbers = Numbers(state: 20_261_124)
        var table = SlotTable<Int>()
        var expected: [String: Int] = [:]
        // Few distinct keys among many operations: long runs of neighbours, removals inside them, keys come back.
        let keys = (0..<600).map { "https://api.example.com/items/\($0)" }
        for step in 0..<20_000 {
            let text = keys[numbers.next(below: keys.count)]
            let key = ResourceKey(text)
            switch numbers.next(below: 3) {
            case 0, 1:
                #expect(table.updateValue(step, forKey: key) == expected.updateValue(step, forKey: text))
            default:
                #expect(table.removeValue(forKey: key) == expected.removeValue(forKey: text))
            }
            #expect(table.count == expected.count)
        }
        for text in keys {
            #expect(table[ResourceKey(text)] == expected[text])
        }
        let listed = Dictionary(uniqueKeysWithValues: table.entries.map { ($0.key.text, $0.value) })
        #expect(listed == expected)
    }

    @Test("D12 a sharded table of more than 16,384 entries splits and still finds, lists and removes each")
    func shardedTableSplits() {
        var table = ShardedTable<Int>()
        let keys = (0..<20_000).map { ResourceKey("https://api.example.com/r/\($0)") }
        for (index, key) in keys.enumerated() {
            table[key] = index
        }
        #expect(table.count == keys.count)
        #expect(keys.indices.allSatisfy { table[keys[$0]] == $0 })
        #expect(table.entries.reduce(0) { $0 + $1.value } == keys.indices.reduce(0, +))
        for key in keys.prefix(10_000) {
            table[key] = nil
        }
        #expect(table.count == 10_000)
        #expect(keys.prefix(10_000).allSatisfy { table[$0] == nil })
        #expect(keys.indices.dropFirst(10_000).allSatisfy { table[keys[$0]] == $0 })
    }
}
