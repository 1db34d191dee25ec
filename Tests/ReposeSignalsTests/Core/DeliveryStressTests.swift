import Testing

@testable import ReposeSignals

@Suite("Observers ending during deliveries, at random")
struct DeliveryStressTests {
    @Test(
        "S1 S2 S5 observers that end each other mid-delivery are never called again and each outlives its own call",
        arguments: [1, 2, 3] as [UInt64])
    func randomEndings(seed: UInt64) {
        let world = StressWorld(seed: seed)
        for round in 0..<60 {
            for _ in 0..<5 { world.addObserver() }
            world.send(round)
        }
        #expect(world.violations == [])
        // The run did exercise what it claims to.
        #expect(world.calls > 1_000)
        #expect(world.endings.count > 50)
    }
}

/// Which ids' closures have been freed; shared by the probes, so it outlives the world.
private final class FreedLog {
    var ids: Set<Int> = []
}

/// Captured by one observer's closure; records its id when the closure is freed.
private final class StressProbe {
    let id: Int
    let log: FreedLog

    init(id: Int, log: FreedLog) {
        self.id = id
        self.log = log
    }

    deinit {
        log.ids.insert(id)
    }
}

/// Observers that, when called, cancel, release or orphan a random observer (themselves included), add
/// observers or send again; every call checks the rules, and every top-level send checks what must be freed.
private final class StressWorld {
    private var random: SplitMix
    private let source = SignalSource<Int>()
    private let freed = FreedLog()
    private var subscriptions: [Subscription?] = []
    private var owners: [StubOwner?] = []
    private var probes: [WeakReference<StressProbe>] = []
    /// When each ended observer ended: the number of top-level sends started before.
    private(set) var endings: [Int: Int] = [:]
    /// Observers ended by their owner's death, which the next delivery at the latest releases (S1).
    private var orphaned: Set<Int> = []
    private(set) var violations: [String] = []
    private(set) var calls = 0
    private var sends = 0
    private var rounds = 0

    init(seed: UInt64) {
        random = SplitMix(seed: seed)
    }

    func addObserver() {
        let id = subscriptions.count
        let probe = StressProbe(id: id, log: freed)
        probes.append(WeakReference(probe))
        let handler: (Int) -> Void = { [unowned self, probe] value in
            self.called(probe.id, value)
        }
        if random.next() % 3 == 0 {
            let owner = StubOwner()
            owners.append(owner)
            subscriptions.append(source.signal.observe(owner: owner, handler))
        } else {
            owners.append(nil)
            subscriptions.append(source.signal.observe(handler))
        }
    }

    func send(_ value: Int) {
        rounds += 1
        source.send(value)
        for (id, round) in endings where round < rounds || !orphaned.contains(id) {
            if probes[id].object != nil { violations.append("observer \(id) still held after it ended") }
        }
    }

    private func called(_ id: Int, _ value: Int) {
        calls += 1
        if endings[id] != nil { violations.append("observer \(id) called after it ended") }
        act(value)
        if freed.ids.contains(id) { violations.append("observer \(id) freed during its own call") }
    }

    private func act(_ value: Int) {
        let target = Int(random.next() % UInt64(subscriptions.count))
        switch random.next() % 8 {
        case 0:
            subscriptions[target]?.cancel()
            end(target)
        case 1 where owners[target] == nil:
            // Releasing a plain subscription ends it; the world holds the only reference.
            subscriptions[target] = nil
            end(target)
        case 2 where owners[target] != nil:
            owners[target] = nil
            if endings[target] == nil { orphaned.insert(target) }
            end(target)
        case 3 where subscriptions.count < 400:
            addObserver()
        case 4 where sends < 100:
            sends += 1
            source.send(value + 1)
        default:
            break
        }
    }

    private func end(_ id: Int) {
        if endings[id] == nil { endings[id] = rounds }
    }
}
