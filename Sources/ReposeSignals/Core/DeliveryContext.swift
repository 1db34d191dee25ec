/// Work that waits until the delivery of one root value has finished, then emits once.
///
/// `combineLatest` registers here instead of emitting at once, so that several of its inputs changed by the same
/// root value produce a single emission (S9). `emit` is a capture-free closure formed in specialised code and
/// called with `target`, so flushing runs specialised code without a protocol existential or an allocation.
@usableFromInline
struct DeferredEmission {
    @usableFromInline let target: AnyObject
    @usableFromInline let emit: (AnyObject) -> Void

    @inlinable
    init(target: AnyObject, emit: @escaping (AnyObject) -> Void) {
        self.target = target
        self.emit = emit
    }
}

/// Travels with a value from the signal that originated it through every internal link.
///
/// One context belongs to each origin (a ``SignalSource``, a state, a time operator) and is reused for every value
/// it sends, so sending allocates nothing. Emissions deferred during a delivery run right after it.
@usableFromInline
final class DeliveryContext {
    @exclusivity(unchecked) @usableFromInline var deferred: ContiguousArray<DeferredEmission> = []
    @exclusivity(unchecked) @usableFromInline var isFlushing = false

    @usableFromInline
    init() {}

    @inlinable
    func schedule(_ emission: DeferredEmission) {
        deferred.append(emission)
    }

    /// Runs the deferred emissions, including any registered while flushing, in registration order.
    @inlinable
    func flush() {
        // A nested flush (an emitter's observer triggering another flush) leaves the work to the outer loop.
        guard !isFlushing else { return }
        isFlushing = true
        var index = 0
        while index < deferred.count {
            let emission = deferred[index]
            index += 1
            emission.emit(emission.target)
        }
        deferred.removeAll(keepingCapacity: true)
        isFlushing = false
    }
}
