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
            let outer = self.link(into: downstream) { value, _ in
                box.follow(transform(value))
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

    @inlinable
    init(downstream: Signal<T>) {
        self.downstream = downstream
    }

    @inlinable
    func follow(_ signal: Signal<T>) {
        let generation = machine.switchToNewInner()
        let previous = inner
        inner = nil
        previous?()
        let teardown = signal.link(into: downstream) { [unowned self] value, context in
            if self.machine.accepts(generation) { self.downstream.deliver(value, context) }
        }
        // A nested outer value may already have replaced this inner signal while it was linking.
        if machine.accepts(generation) { inner = teardown } else { teardown() }
    }

    @inlinable
    func disconnect() {
        machine.disconnect()
        let previous = inner
        inner = nil
        previous?()
    }
}
