extension Signal {
    /// A signal that follows the inner signal `transform` returns for the newest value of this signal.
    ///
    /// Each new value of this signal unsubscribes from the previous inner signal at once and subscribes to the
    /// new one (S12). Typical use: follow the resource for the currently selected identifier.
    ///
    /// ```swift
    /// let details = selectedID.flatMapLatest { id in store.details(for: id) }
    /// ```
    ///
    /// - Parameter transform: Returns the signal to follow for a value.
    /// - Returns: The signal of the current inner signal's values.
    @inlinable
    public func flatMapLatest<T>(_ transform: @escaping (Value) -> Signal<T>) -> Signal<T> {
        Signal<T> { downstream in
            let box = FlatMapLatestBox(downstream: downstream)
            let outer = self.link(into: downstream, upstreamEnd: .handled { box.outerFinished() }) { value, context in
                box.follow(transform(value), context)
            }
            return {
                outer()
                box.disconnect()
            }
        }
    }
}

/// The live state of one connected `flatMapLatest`.
@usableFromInline
final class FlatMapLatestBox<T> {
    @usableFromInline let downstream: Signal<T>
    @usableFromInline var machine = FlatMapLatestMachine()
    @usableFromInline var inner: Teardown?
    /// Whether the outer signal finished: the current inner signal is the last one.
    @usableFromInline var isOuterFinished = false
    /// The outer value's delivery context while the new inner signal is linked: a value the inner signal replays
    /// as it connects (a `prepend`, a state) travels with the outer value, so that a `combineLatest` downstream waits
    /// for the outer value's whole delivery before emitting (S9).
    @usableFromInline var linkingContext: DeliveryContext?

    @inlinable
    init(downstream: Signal<T>) {
        self.downstream = downstream
    }

    @inlinable
    func follow(_ signal: Signal<T>, _ context: DeliveryContext) {
        let generation = machine.switchToNewInner()
        let previous = inner
        inner = nil
        previous?()
        // Weak: an inner signal tells its links that it finished after ending its observers, which may have ended
        // this operator's connection too.
        let end = UpstreamEnd.handled { [weak self] in self?.innerFinished(generation) }
        let outerContext = linkingContext
        linkingContext = context
        let teardown = signal.link(into: downstream, upstreamEnd: end) { [unowned self] value, context in
            if self.machine.accepts(generation) { self.downstream.deliver(value, self.linkingContext ?? context) }
        }
        linkingContext = outerContext
        // A nested outer value may already have replaced this inner signal while it was linking.
        if machine.accepts(generation) { inner = teardown } else { teardown() }
    }

    /// Without more outer values, the signal finishes with the current inner signal, or at once if there is none.
    @usableFromInline
    func outerFinished() {
        isOuterFinished = true
        if inner == nil { downstream.finish() }
    }

    @usableFromInline
    func innerFinished(_ generation: Int) {
        guard machine.accepts(generation) else { return }
        inner = nil
        if isOuterFinished { downstream.finish() }
    }

    @inlinable
    func disconnect() {
        machine.disconnect()
        let previous = inner
        inner = nil
        previous?()
    }
}
