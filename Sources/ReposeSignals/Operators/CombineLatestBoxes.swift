/// The live state of one connected two-input `combineLatest`.
@usableFromInline
final class CombineLatestPair<A, B> {
    @usableFromInline let downstream: Signal<(A, B)>
    @exclusivity(unchecked) @usableFromInline var machine: CombineLatestMachine
    @exclusivity(unchecked) @usableFromInline var first: A?
    @exclusivity(unchecked) @usableFromInline var second: B?
    @exclusivity(unchecked) @usableFromInline var context: DeliveryContext?

    @inlinable
    init(downstream: Signal<(A, B)>, seed: (A, B)?) {
        self.downstream = downstream
        machine = CombineLatestMachine(inputCount: 2, seeded: seed != nil)
        first = seed?.0
        second = seed?.1
    }

    @inlinable
    func changed(input: Int, _ context: DeliveryContext) {
        if machine.receive(input: input) == .schedule {
            self.context = context
            context.schedule(DeferredEmission(target: self) { CombineLatestPair<A, B>.emit($0) })
        }
    }

    @inlinable
    static func emit(_ target: AnyObject) {
        unsafeDowncast(target, to: CombineLatestPair<A, B>.self).emitDeferred()
    }

    @inlinable
    func emitDeferred() {
        guard machine.flush(), let first, let second, let context else { return }
        self.context = nil
        downstream.deliver((first, second), context)
    }

    @inlinable
    func reset() {
        machine.reset()
        first = nil
        second = nil
        context = nil
    }
}

/// The live state of one connected array `combineLatest`.
@usableFromInline
final class CombineLatestArray<Value> {
    @usableFromInline let downstream: Signal<[Value]>
    @exclusivity(unchecked) @usableFromInline var machine: CombineLatestMachine
    @exclusivity(unchecked) @usableFromInline var latest: [Value?]
    @exclusivity(unchecked) @usableFromInline var context: DeliveryContext?

    @inlinable
    init(downstream: Signal<[Value]>, count: Int, seed: [Value]?) {
        self.downstream = downstream
        let seeded = seed.map { $0.count == count } ?? false
        machine = CombineLatestMachine(inputCount: count, seeded: seeded)
        latest = seeded ? (seed ?? []).map { $0 } : Array(repeating: nil, count: count)
    }

    @inlinable
    func changed(input: Int, _ context: DeliveryContext) {
        if machine.receive(input: input) == .schedule {
            self.context = context
            context.schedule(DeferredEmission(target: self) { CombineLatestArray<Value>.emit($0) })
        }
    }

    @inlinable
    static func emit(_ target: AnyObject) {
        unsafeDowncast(target, to: CombineLatestArray<Value>.self).emitDeferred()
    }

    @inlinable
    func emitDeferred() {
        guard machine.flush(), let context else { return }
        self.context = nil
        let values = latest.compactMap { $0 }
        guard values.count == latest.count else { return }
        downstream.deliver(values, context)
    }

    @inlinable
    func reset() {
        machine.reset()
        latest = Array(repeating: nil, count: latest.count)
        context = nil
    }
}
