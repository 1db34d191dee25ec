import Testing

@testable import ReposeSignals

/// S24: every operator keeps S1–S9. The rules that hold the same way for every operator are checked here over the
/// whole `OperatorCase` table; each operator's own behaviour has its own suite.
@Suite("Every operator keeps the signals contract")
struct OperatorContractTests {
    let scheduler = TestScheduler()
    let source = SignalSource<Int>()

    @Test(
        "S3 S4 S24 a value sent from inside an observer is queued: every observer sees the same values, none nested",
        arguments: OperatorCase.allCases)
    func reentrantSendsQueued(operation: OperatorCase) {
        let derived = operation.apply(to: source.signal, scheduler: scheduler)
        var depth = 0
        var deepest = 0
        var first: [Int] = []
        var second: [Int] = []
        let sendMore = { [source] in
            source.send(20)
            source.send(30)
        }
        let a = derived.observe { value in
            depth += 1
            deepest = max(deepest, depth)
            first.append(value)
            // On the first value sent, not on a replay (`prepend`), which only the new observer receives.
            if value > 0, !first.dropLast().contains(where: { $0 > 0 }) { sendMore() }
            depth -= 1
        }
        let b = derived.observe { value in
            depth += 1
            deepest = max(deepest, depth)
            second.append(value)
            depth -= 1
        }
        for value in 1...6 {
            source.send(value)
            scheduler.advance(by: .seconds(1))
        }
        scheduler.run()
        #expect(deepest == 1)
        #expect(first == second)
        #expect(!first.isEmpty)
        withExtendedLifetime((a, b)) {}
    }

    @Test(
        "S1 S5 S24 an owner released during a delivery is not called again, and its closure is freed",
        arguments: OperatorCase.allCases)
    func ownerReleasedMidDelivery(operation: OperatorCase) {
        let derived = operation.apply(to: source.signal, scheduler: scheduler)
        var owner: StubOwner? = StubOwner()
        var probe: LifetimeProbe? = LifetimeProbe()
        let weakProbe = WeakReference(probe)
        var calledAfterRelease = false
        var released = false
        let first = derived.observe { value in
            // On a value sent, not on a replay (`prepend`), which only the new observer receives.
            guard value > 0 else { return }
            owner = nil
            released = true
        }
        derived.observe(owner: owner ?? StubOwner()) { [probe] _ in
            probe?.touch()
            if released { calledAfterRelease = true }
        }
        probe = nil
        for value in 1...6 {
            source.send(value)
            scheduler.advance(by: .seconds(1))
        }
        scheduler.run()
        #expect(released)
        #expect(!calledAfterRelease)
        #expect(weakProbe.object == nil)
        withExtendedLifetime(first) {}
    }

    @Test(
        "S9 S24 combined with the source through combineLatest, no pair ever carries a stale source value",
        arguments: OperatorCase.allCases)
    func glitchFreeWithCombineLatest(operation: OperatorCase) {
        let derived = operation.apply(to: source.signal, scheduler: scheduler)
        var latestSent = 0
        var stale: [Int] = []
        var pairs = 0
        let subscription = derived.combineLatest(source.signal.map { $0 }).observe { _, sent in
            pairs += 1
            if sent != latestSent { stale.append(sent) }
        }
        for value in 1...6 {
            latestSent = value
            source.send(value)
        }
        #expect(stale.isEmpty)
        #expect(pairs <= 6)
        _ = subscription
    }

    @Test(
        "S8 S17 S24 when its source finishes, every operator built on it ends its observers and frees their closures",
        arguments: OperatorCase.allCases)
    func finishesWithItsSource(operation: OperatorCase) {
        var derived: Signal<Int>? = operation.apply(to: source.signal.prefix(4), scheduler: scheduler)
        let weakDerived = WeakReference(derived)
        var probe: LifetimeProbe? = LifetimeProbe()
        let weakProbe = WeakReference(probe)
        derived?.observe(owner: self.source) { [probe] _ in probe?.touch() }
        derived = nil
        probe = nil
        for value in 1...4 {
            source.send(value)
            scheduler.advance(by: .seconds(1))
        }
        scheduler.run()
        #expect(weakProbe.object == nil)
        #expect(weakDerived.object == nil)
        #expect(source.signal.observerCount == 0)
        #expect(scheduler.pendingCount == 0)
    }

    @Test(
        "S1 S8 S24 releasing the source ends the observers of every operator built on it, and frees their closures",
        arguments: OperatorCase.allCases)
    func sourceReleased(operation: OperatorCase) {
        var source: SignalSource<Int>? = SignalSource()
        var derived: Signal<Int>? = source.map { operation.apply(to: $0.signal, scheduler: scheduler) }
        let weakDerived = WeakReference(derived)
        var probe: LifetimeProbe? = LifetimeProbe()
        let weakProbe = WeakReference(probe)
        let owner = StubOwner()
        derived?.observe(owner: owner) { [probe] _ in probe?.touch() }
        derived = nil
        probe = nil
        source?.send(1)
        source = nil
        scheduler.run()
        #expect(weakProbe.object == nil)
        #expect(weakDerived.object == nil)
    }
}
