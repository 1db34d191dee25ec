extension Signal {
    /// A signal that delivers a value only once `interval` has passed without a newer one (S10).
    ///
    /// Typical use: search as the user types, but only once they pause.
    ///
    /// ```swift
    /// let queries = typed.debounce(for: .milliseconds(300), scheduler: MainScheduler())
    /// ```
    ///
    /// The value is delivered from the scheduler. A value still pending when the last observer leaves is
    /// dropped.
    ///
    /// - Parameters:
    ///   - interval: The quiet time required before a value is delivered.
    ///   - scheduler: Where the delivery happens and where time is read.
    /// - Returns: The debounced signal.
    @inlinable
    public func debounce<S: Scheduler>(for interval: Duration, scheduler: S) -> Signal<Value> {
        Signal { downstream in
            let box = DebounceBox(interval: interval, scheduler: scheduler, downstream: downstream)
            let upstream = self.link(into: downstream, upstreamEnd: .handled { box.upstreamFinished() }) { value, _ in
                if let delay = box.machine.receive(value, now: scheduler.now) { box.startTimer(delay) }
            }
            return {
                upstream()
                box.cancel()
            }
        }
    }
}

/// The live state of one connected `debounce`.
@usableFromInline
final class DebounceBox<Value, S: Scheduler> {
    @usableFromInline let scheduler: S
    @usableFromInline let downstream: Signal<Value>
    @exclusivity(unchecked) @usableFromInline var machine: DebounceMachine<Value>
    @exclusivity(unchecked) @usableFromInline var timer: ScheduledWork?
    /// Whether the upstream finished: the debounced signal finishes once the pending value is out.
    @exclusivity(unchecked) @usableFromInline var isUpstreamFinished = false

    @inlinable
    init(interval: Duration, scheduler: S, downstream: Signal<Value>) {
        self.scheduler = scheduler
        self.downstream = downstream
        machine = DebounceMachine(interval: interval)
    }

    @inlinable
    func startTimer(_ delay: Duration) {
        let work = scheduler.schedule(after: delay) { self.timerFired() }
        if !work.isDone { timer = work }
    }

    @inlinable
    func timerFired() {
        timer = nil
        switch machine.timerFired(now: scheduler.now) {
        case .emit(let value):
            downstream.send(value)
            if isUpstreamFinished { downstream.finish() }
        case .wait(let remaining): startTimer(remaining)
        case .idle: break
        }
    }

    @usableFromInline
    func upstreamFinished() {
        isUpstreamFinished = true
        if machine.pending == nil { downstream.finish() }
    }

    @inlinable
    func cancel() {
        timer?.cancel()
        timer = nil
        machine.reset()
    }
}
