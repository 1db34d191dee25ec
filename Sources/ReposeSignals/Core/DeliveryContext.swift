/// Work that waits until the delivery of one root value has finished, then emits once.
///
/// `combineLatest` registers here instead of emitting at once, so that several of its inputs changed by the same
/// root value produce a single emission (S9).
@usableFromInline
protocol DeferredEmitter: AnyObject {
    func emitDeferred()
}

/// Travels with a value from the signal that originated it through every internal link.
///
/// One context belongs to each origin (a ``SignalSource``, a state, a time operator) and is reused for every value
/// it sends, so sending allocates nothing. Emitters deferred during a delivery run right after it.
@usableFromInline
final class DeliveryContext {
    @exclusivity(unchecked) @usableFromInline var deferred: ContiguousArray<any DeferredEmitter> = []
    @exclusivity(unchecked) @usableFromInline var isFlushing = false

    @usableFromInline
    init() {}

    @inlinable
    func schedule(_ emitter: any DeferredEmitter) {
        deferred.append(emitter)
    }

    /// Runs the deferred emitters, including any registered while flushing, in registration order.
    @usableFromInline
    func flush() {
        // A nested flush (an emitter's observer triggering another flush) leaves the work to the outer loop.
        guard !isFlushing else { return }
        isFlushing = true
        var index = 0
        while index < deferred.count {
            let emitter = deferred[index]
            index += 1
            emitter.emitDeferred()
        }
        deferred.removeAll(keepingCapacity: true)
        isFlushing = false
    }
}
