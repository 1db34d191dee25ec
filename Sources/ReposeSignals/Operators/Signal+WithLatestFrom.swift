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
        pairing(with: other, read: nil)
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
        pairing(with: nil, read: { state.value })
    }

    /// Both forms: the latest value comes from `other`'s values, or is read from `read` when a pair leaves.
    @inlinable
    func pairing<Other>(with other: Signal<Other>?, read: (() -> Other)?) -> Signal<(Value, Other)> {
        Signal<(Value, Other)> { downstream in
            let box = LatestFromBox<Value, Other>(downstream: downstream, read: read)
            // Linked first, so that it hears a change it shares with the trigger before the trigger does.
            let latest = other?.link(into: downstream, upstreamEnd: .ignored) { value, _ in
                box.machine.receiveOther(value)
            }
            let trigger = self.link(into: downstream) { value, context in box.trigger(value, context) }
            return {
                trigger()
                latest?()
                box.machine.reset()
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

    @inlinable
    init(downstream: Signal<(Trigger, Other)>, read: (() -> Other)?) {
        self.downstream = downstream
        self.read = read
    }

    @inlinable
    func trigger(_ value: Trigger, _ context: DeliveryContext) {
        guard machine.receiveTrigger(value) else { return }
        context.schedule(self) { box, context in unsafeDowncast(box, to: Self.self).emit(context) }
    }

    @inlinable
    func emit(_ context: DeliveryContext) {
        guard machine.isScheduled else { return }
        // Taken out of the machine before delivering: a delivery below may trigger a nested flush of this box. The
        // usual single trigger value per delivery waits in a field; only a second one costs an array.
        var rest = ContiguousArray<Trigger>()
        let (first, latest) = machine.flush(swappingRestInto: &rest)
        if let other = read?() ?? latest {
            if let first { downstream.deliver((first, other), context) }
            for value in rest { downstream.deliver((value, other), context) }
        }
    }
}
