/// The live state of one connected `combineLatest`: the latest value of each input, in `latest` (a tuple of
/// optionals, or an array of them), and the machine that decides when they leave together (S9).
@usableFromInline
final class CombineLatestBox<Latest, Output> {
    @usableFromInline let downstream: Signal<Output>
    /// Makes the output of the latest values, or nil while one is missing; capture-free.
    @usableFromInline let combine: (Latest) -> Output?
    @exclusivity(unchecked) @usableFromInline var machine: CombineLatestMachine
    @exclusivity(unchecked) @usableFromInline var latest: Latest

    @inlinable
    init(
        downstream: Signal<Output>, inputs: Int, latest: Latest, seeded: Bool,
        combine: @escaping (Latest) -> Output?
    ) {
        self.downstream = downstream
        self.combine = combine
        machine = CombineLatestMachine(inputCount: inputs, seeded: seeded)
        self.latest = latest
    }

    @inlinable
    func changed(input: Int, _ context: DeliveryContext) {
        guard machine.receive(input: input) == .schedule else { return }
        context.schedule(self) { box, context in unsafeDowncast(box, to: Self.self).emit(context) }
    }

    @inlinable
    func emit(_ context: DeliveryContext) {
        guard machine.flush(), let output = combine(latest) else { return }
        downstream.deliver(output, context)
    }
}
