import Testing

@testable import ReposeSignals

/// Every operator, applied to an `Int` signal, so lifetime rules can be checked for all of them in one table.
enum OperatorCase: String, CaseIterable, CustomTestStringConvertible {
    case map, filter, compactMap, removeDuplicates, combineLatest, combineLatestArray, merge, scan, prepend
    case flatMapLatest, debounce, throttle, delay
    case withLatestFrom, withLatestFromState, sample, zip, zipArray, prefix, prefixWhile, prefixUntilOutput
    case dropFirst, dropWhile, pairwise, collectCount, collectEvery, mapKeyPath, removeDuplicatesByKey, handleEvents

    var testDescription: String { rawValue }

    func apply(to signal: Signal<Int>, scheduler: TestScheduler) -> Signal<Int> {
        switch self {
        case .map: signal.map { $0 + 1 }
        case .filter: signal.filter { _ in true }
        case .compactMap: signal.compactMap { $0 }
        case .removeDuplicates: signal.removeDuplicates()
        case .combineLatest: signal.combineLatest(signal.map { $0 }).map { $0 + $1 }
        case .combineLatestArray: Signal.combineLatest([signal, signal]).map { $0[0] }
        case .merge: signal.merge(with: signal)
        case .scan: signal.scan(0, +)
        case .prepend: signal.prepend(0)
        case .flatMapLatest: signal.flatMapLatest { signal.prepend($0) }
        case .debounce: signal.debounce(for: .seconds(1), scheduler: scheduler)
        case .throttle: signal.throttle(for: .seconds(1), scheduler: scheduler, latest: true)
        case .delay: signal.delay(for: .seconds(1), scheduler: scheduler)
        case .withLatestFrom: signal.withLatestFrom(signal.map { $0 }).map { $0 + $1 }
        case .withLatestFromState: signal.withLatestFrom(State.constant(1)).map { $0 + $1 }
        case .sample: signal.sample(signal)
        case .zip: signal.zip(signal.map { $0 }).map { $0 + $1 }
        case .zipArray: Signal.zip([signal, signal]).map { $0[0] }
        case .prefix: signal.prefix(100)
        case .prefixWhile: signal.prefix { $0 < 100 }
        case .prefixUntilOutput: signal.prefix(untilOutputFrom: signal.filter { $0 >= 100 })
        case .dropFirst: signal.dropFirst()
        case .dropWhile: signal.drop { $0 < 2 }
        case .pairwise: signal.pairwise().map { $0 + $1 }
        case .collectCount: signal.collect(count: 2).map { $0.reduce(0, +) }
        case .collectEvery: signal.collect(every: .seconds(1), scheduler: scheduler).map { $0.reduce(0, +) }
        case .mapKeyPath: signal.map(\.magnitude).map { Int($0) }
        case .removeDuplicatesByKey: signal.removeDuplicates(by: \.magnitude)
        case .handleEvents: signal.handleEvents(receiveOutput: { _ in })
        }
    }
}

@Suite("Derived signal lifetimes")
struct DerivedLifetimeTests {
    let scheduler = TestScheduler()

    @Test("S8 a derived signal subscribes to its source only while it has observers", arguments: OperatorCase.allCases)
    func connectsOnlyWhileObserved(operation: OperatorCase) {
        let source = SignalSource<Int>()
        let derived = operation.apply(to: source.signal, scheduler: scheduler)
        #expect(source.signal.observerCount == 0)
        let subscription = derived.observe { _ in }
        source.send(1)
        #expect(source.signal.observerCount > 0)
        subscription.cancel()
        #expect(source.signal.observerCount == 0)
        #expect(!derived.isConnected)
    }

    @Test("S8 a derived signal does not keep its source alive", arguments: OperatorCase.allCases)
    func doesNotRetainSource(operation: OperatorCase) {
        var source: SignalSource<Int>? = SignalSource()
        let weakSource = WeakReference(source)
        let derived = source.map { operation.apply(to: $0.signal, scheduler: scheduler) }
        let subscription = derived?.observe { _ in }
        source = nil
        #expect(weakSource.object == nil)
        _ = subscription
    }

    @Test("S8 a derived signal and its observer are freed once the subscription ends", arguments: OperatorCase.allCases)
    func freedAfterSubscriptionEnds(operation: OperatorCase) {
        let source = SignalSource<Int>()
        var probe: LifetimeProbe? = LifetimeProbe()
        let weakProbe = WeakReference(probe)
        var derived: Signal<Int>? = operation.apply(to: source.signal, scheduler: scheduler)
        let weakDerived = WeakReference(derived)
        var subscription = derived?.observe { [probe] _ in probe?.touch() }
        source.send(1)
        derived = nil
        probe = nil
        #expect(weakDerived.object != nil)
        subscription = nil
        #expect(weakDerived.object == nil)
        #expect(weakProbe.object == nil)
        #expect(scheduler.pendingCount == 0)
        _ = subscription
    }

    @Test(
        "S1 S8 an owner-scoped observer of a derived signal is freed with its chain once the owner is gone",
        arguments: OperatorCase.allCases)
    func ownerGoneFreesChain(operation: OperatorCase) {
        let source = SignalSource<Int>()
        var owner: StubOwner? = StubOwner()
        var probe: LifetimeProbe? = LifetimeProbe()
        let weakProbe = WeakReference(probe)
        var derived: Signal<Int>? = operation.apply(to: source.signal, scheduler: scheduler)
        let weakDerived = WeakReference(derived)
        derived?.observe(owner: owner ?? StubOwner()) { [probe] _ in probe?.touch() }
        derived = nil
        probe = nil
        source.send(1)
        scheduler.run()
        owner = nil
        source.send(2)
        scheduler.run()
        #expect(weakDerived.object == nil)
        #expect(weakProbe.object == nil)
        #expect(source.signal.observerCount == 0)
    }
}
