/// Travels with a value from the signal that originated it through every internal link.
///
/// One context belongs to each origin (a ``SignalSource``, a state, a time operator) and is reused for every value
/// it sends, so sending allocates nothing. Work deferred during a delivery runs right after it: `combineLatest`
/// registers its emission here instead of emitting at once, so that several of its inputs changed by the same root
/// value produce a single emission (S9).
@usableFromInline
final class DeliveryContext {
    /// Each deferred emission is a capture-free closure formed in specialised code and called with its target and
    /// this context, so that running it needs neither a protocol existential nor an allocation.
    @exclusivity(unchecked) @usableFromInline
    var deferred: ContiguousArray<(AnyObject, (AnyObject, DeliveryContext) -> Void)> = []
    @exclusivity(unchecked) @usableFromInline var isFlushing = false

    @usableFromInline
    init() {}

    /// Runs `emit` with `target` and this context once the delivery is over.
    @inlinable
    func schedule(_ target: AnyObject, _ emit: @escaping (AnyObject, DeliveryContext) -> Void) {
        deferred.append((target, emit))
    }

    /// Runs the deferred emissions, including any registered while flushing, in registration order.
    @inlinable
    func flush() {
        // A nested flush (an emitter's observer triggering another flush) leaves the work to the outer loop.
        guard !isFlushing else { return }
        isFlushing = true
        var index = 0
        while index < deferred.count {
            let (target, emit) = deferred[index]
            index += 1
            emit(target, self)
        }
        deferred.removeAll(keepingCapacity: true)
        isFlushing = false
    }
}
