extension Signal {
    /// A signal that pairs each value of this signal (the trigger) with the latest value of `other` (S15).
    ///
    /// Nothing is delivered for trigger values that arrive before `other` has delivered once. Typical use: a submit
    /// button that sends the form as it is when tapped.
    ///
    /// ```swift
    /// let submissions = submitTaps.withLatestFrom(form.signal)  // (tap, form)
    /// ```
    ///
    /// `other`'s values alone deliver nothing. When one change reaches both inputs, the pair carries `other`'s new
    /// value: the pair is delivered once the change has reached every input, as ``combineLatest(_:)-method`` does
    /// (S9). The result finishes when the trigger does (`other` finishing changes nothing: its last value stays).
    ///
    /// - Parameter other: The signal whose latest value goes with each trigger value.
    /// - Returns: The signal of pairs.
    @inlinable
    public func withLatestFrom<Other>(_ other: Signal<Other>) -> Signal<(Value, Other)> {
        Signal<(Value, Other)> { downstream in
            let box = LatestFromBox<Value, Other>(downstream: downstream)
            // Linked first, so that it hears a change it shares with the trigger before the trigger does.
            let latest = other.link(into: downstream, upstreamEnd: .ignored) { value, _ in
                box.machine.receiveOther(value)
            }
            let trigger = self.link(into: downstream) { value, context in box.trigger(value, context) }
            return {
                trigger()
                latest()
                box.reset()
            }
        }
    }

    /// A signal that pairs each value of this signal (the trigger) with `state`'s value at that moment (S15).
    ///
    /// A state always has a value, so every trigger value is delivered:
    ///
    /// ```swift
    /// let submissions = submitTaps.withLatestFrom(form.state).map { _, form in form }
    /// ```
    ///
    /// The state is read once the delivery that brought the trigger value is over, so a change that reaches both is
    /// seen (S9). The result finishes when the trigger does.
    ///
    /// - Parameter state: The state whose value goes with each trigger value.
    /// - Returns: The signal of pairs.
    @inlinable
    public func withLatestFrom<Other>(_ state: State<Other>) -> Signal<(Value, Other)> {
        Signal<(Value, Other)> { downstream in
            let box = LatestFromBox<Value, Other>(downstream: downstream, read: { state.value })
            let trigger = self.link(into: downstream) { value, context in box.trigger(value, context) }
            return {
                trigger()
                box.reset()
            }
        }
    }
}

/// The live state of one connected `withLatestFrom`.
@usableFromInline
final class LatestFromBox<Trigger, Other> {
    @usableFromInline let downstream: Signal<(Trigger, Other)>
    /// Reads a state's current value, for the form over a state; nil for the form over a signal.
    @usableFromInline let read: (() -> Other)?
    @exclusivity(unchecked) @usableFromInline var machine = LatestFromMachine<Trigger, Other>()
    /// An empty buffer with room, swapped with the machine's when more than one trigger value waited, so that
    /// flushing allocates nothing.
    @exclusivity(unchecked) @usableFromInline var spare: ContiguousArray<Trigger> = []
    @exclusivity(unchecked) @usableFromInline var context: DeliveryContext?

    @inlinable
    init(downstream: Signal<(Trigger, Other)>, read: (() -> Other)? = nil) {
        self.downstream = downstream
        self.read = read
    }

    @inlinable
    func trigger(_ value: Trigger, _ context: DeliveryContext) {
        if machine.receiveTrigger(value) {
            self.context = context
            context.schedule(DeferredEmission(target: self) { LatestFromBox<Trigger, Other>.emit($0) })
        }
    }

    @inlinable
    static func emit(_ target: AnyObject) {
        unsafeDowncast(target, to: LatestFromBox<Trigger, Other>.self).emitDeferred()
    }

    @inlinable
    func emitDeferred() {
        guard let context else { return }
        self.context = nil
        // A local buffer: a delivery below may trigger a nested flush of this box, which takes `spare` for itself.
        var rest = ContiguousArray<Trigger>()
        swap(&rest, &spare)
        let (first, latest) = machine.flush(swappingRestInto: &rest)
        if let other = read?() ?? latest {
            if let first { downstream.deliver((first, other), context) }
            for value in rest { downstream.deliver((value, other), context) }
        }
        if !rest.isEmpty { rest.removeAll(keepingCapacity: true) }
        swap(&rest, &spare)
    }

    @inlinable
    func reset() {
        machine.reset()
        spare = []
        context = nil
    }
}
