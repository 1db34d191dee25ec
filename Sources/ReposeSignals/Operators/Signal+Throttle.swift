extension Signal {
    /// A signal that delivers at most one value per `interval` (S11).
    ///
    /// The first value after a quiet period is delivered at once and opens an interval. Values arriving within
    /// it are held back; when it ends, the last of them (`latest: true`) or the first (`latest: false`) is
    /// delivered and opens the next interval.
    ///
    /// ```swift
    /// let positions = drags.throttle(for: .milliseconds(100), scheduler: MainScheduler(), latest: true)
    /// ```
    ///
    /// - Parameters:
    ///   - interval: The minimum time between two deliveries.
    ///   - scheduler: Where delayed deliveries happen.
    ///   - latest: Whether the held-back value is the interval's last (true) or first (false).
    /// - Returns: The throttled signal.
    @inlinable
    public func throttle<S: Scheduler>(for interval: Duration, scheduler: S, latest: Bool) -> Signal<Value> {
        Signal { downstream in
            let box = ThrottleBox(interval: interval, scheduler: scheduler, latest: latest, downstream: downstream)
            let end = UpstreamEnd.handled { box.upstreamFinished() }
            let upstream = self.link(into: downstream, upstreamEnd: end) { value, context in
                box.perform(box.machine.receive(value), context)
            }
            return {
                upstream()
                box.cancel()
            }
        }
    }
}

/// The live state of one connected `throttle`.
@usableFromInline
final class ThrottleBox<Value, S: Scheduler> {
    @usableFromInline let interval: Duration
    @usableFromInline let scheduler: S
    @usableFromInline let downstream: Signal<Value>
    @usableFromInline var machine: ThrottleMachine<Value>
    @usableFromInline var timer: ScheduledWork?
    /// Whether the upstream finished: the throttled signal finishes once the held-back value is out.
    @usableFromInline var isUpstreamFinished = false

    @inlinable
    init(interval: Duration, scheduler: S, latest: Bool, downstream: Signal<Value>) {
        self.interval = interval
        self.scheduler = scheduler
        self.downstream = downstream
        machine = ThrottleMachine(latest: latest)
    }

    /// Carries out an action; `context` is the upstream delivery's, or nil when the timer delivers.
    @inlinable
    func perform(_ action: ThrottleMachine<Value>.Action, _ context: DeliveryContext?) {
        guard case .emitAndOpenWindow(let value) = action else { return }
        if let context { downstream.deliver(value, context) } else { downstream.send(value) }
        let work = scheduler.schedule(after: interval) { self.windowClosed() }
        if !work.isDone { timer = work }
    }

    @inlinable
    func windowClosed() {
        timer = nil
        perform(machine.windowClosed(), nil)
        if isUpstreamFinished, machine.collected == nil { downstream.finish() }
    }

    @usableFromInline
    func upstreamFinished() {
        isUpstreamFinished = true
        if machine.collected == nil { downstream.finish() }
    }

    @inlinable
    func cancel() {
        timer?.cancel()
        timer = nil
        machine.reset()
    }
}
