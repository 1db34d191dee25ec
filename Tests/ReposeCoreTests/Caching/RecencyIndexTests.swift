import Testing

@testable import Repose
@testable import ReposeStorage
@testable import ReposeTestSupport

@Suite("RecencyIndex: least recently used first, at a constant cost")
struct RecencyIndexTests {
    @Test("K4 eviction takes the least recently used first, counting reads and writes as uses")
    func evictsLeastRecentlyUsed() {
        var index = RecencyIndex()
        for name in ["a", "b", "c", "d"] { index.touch(name, size: 10) }
        index.touch("a")  // read: now the newest
        index.touch("c", size: 10)  // rewritten
        #expect(index.namesByRecency == ["b", "d", "a", "c"])
        #expect(index.evict(toFit: .max, maximumCount: 2) == ["b", "d"])
        #expect(index.namesByRecency == ["a", "c"])
        #expect(index.count == 2 && index.totalSize == 20)
    }

    @Test("K4 eviction holds both limits: size and count")
    func bothLimits() {
        var index = RecencyIndex()
        index.touch("big", size: 900)
        index.touch("small1", size: 50)
        index.touch("small2", size: 50)
        #expect(index.evict(toFit: 500, maximumCount: 10) == ["big"])
        #expect(index.totalSize == 100)
        index.touch("small1", size: 400)  // grew when rewritten
        #expect(index.evict(toFit: 300, maximumCount: 10) == ["small2", "small1"])
        #expect(index.count == 0 && index.totalSize == 0)
        #expect(index.evict(toFit: 0, maximumCount: 0).isEmpty)
    }

    @Test("K4 removed entries free their slots; the list stays whole through any mix of operations")
    func randomOperationsMatchAModel() {
        var generator = SeededGenerator(seed: 0x5EED_CACE)
        var index = RecencyIndex()
        var model: [(name: String, size: Int)] = []  // least recently used first
        for _ in 0..<20_000 {
            let name = "e\(Int.random(in: 0..<64, using: &generator))"
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<5:
                let size = Int.random(in: 0..<1_000, using: &generator)
                index.touch(name, size: size)
                model.removeAll { $0.name == name }
                model.append((name, size))
            case 5..<7:
                index.touch(name)
                if let found = model.firstIndex(where: { $0.name == name }) { model.append(model.remove(at: found)) }
            case 7..<9:
                index.remove(name)
                model.removeAll { $0.name == name }
            default:
                let (size, count) = (
                    Int.random(in: 0..<30_000, using: &generator), Int.random(in: 0..<60, using: &generator)
                )
                var expected: [String] = []
                while model.reduce(0, { $0 + $1.size }) > size || model.count > count {
                    expected.append(model.removeFirst().name)
                }
                #expect(index.evict(toFit: size, maximumCount: count) == expected)
            }
            #expect(index.count == model.count)
            #expect(index.totalSize == model.reduce(0) { $0 + $1.size })
        }
        #expect(index.namesByRecency == model.map(\.name))
    }
}
