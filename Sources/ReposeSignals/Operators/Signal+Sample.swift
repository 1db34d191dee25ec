extension Signal {
    /// A signal that delivers this signal's latest value on each value of `trigger`, at most once per value of this
    /// signal (S15).
    ///
    /// A tick with no new value since the last one delivers nothing. Typical use: a value that changes often, shown
    /// at the pace of a clock.
    ///
    /// ```swift
    /// let shown = position.sample(Signal.timer(every: .seconds(1), scheduler: MainScheduler()))
    /// ```
    ///
    /// When one change reaches both this signal and the trigger, the tick sees the new value: the value is delivered
    /// once the change has reached both, as ``combineLatest(_:)-method`` delivers (S9). The result finishes when the
    /// trigger finishes, or when this signal finishes and its last value has been delivered.
    ///
    /// - Parameter trigger: The signal whose values say when to deliver.
    /// - Returns: The sampled signal.
    @inlinable
    public func sample<Trigger>(_ trigger: Signal<Trigger>) -> Signal<Value> {
        Signal { downstream in
            let box = SampleBox<Value>(downstream: downstream)
            let source = self.link(into: downstream, upstreamEnd: .handled { box.sourceFinished() }) { value, _ in
                box.machine.receive(value)
            }
            let ticks = trigger.link(into: downstream) { _, context in box.tick(context) }
            return {
                source()
                ticks()
                box.machine.reset()
            }
        }
    }
}

/// The live state of one connected `sample`.
@usableFromInline
final class SampleBox<Value> {
    @usableFromInline let downstream: Signal<Value>
    @exclusivity(unchecked) @usableFromInline var machine = SampleMachine<Value>()
    /// Whether the source finished: the signal finishes once its last value is out.
    @exclusivity(unchecked) @usableFromInline var isSourceFinished = false

    @inlinable
    init(downstream: Signal<Value>) {
        self.downstream = downstream
    }

    @inlinable
    func tick(_ context: DeliveryContext) {
        guard machine.tick() else { return }
        context.schedule(self) { box, context in unsafeDowncast(box, to: Self.self).emit(context) }
    }

    @inlinable
    func emit(_ context: DeliveryContext) {
        guard machine.isScheduled else { return }
        if let value = machine.flush() { downstream.deliver(value, context) }
        if isSourceFinished { downstream.finish() }
    }

    @usableFromInline
    func sourceFinished() {
        isSourceFinished = true
        if machine.fresh == nil, !machine.isScheduled { downstream.finish() }
    }
}
