extension Signal {
    /// A signal of arrays of `count` consecutive values of this signal (S18).
    ///
    /// ```swift
    /// let pages = items.collect(count: 20)  // one array per 20 items
    /// ```
    ///
    /// Values still collected when the signal loses its last observer are dropped; if this signal finishes, they
    /// are delivered as a last, shorter array.
    ///
    /// - Parameter count: How many values make an array; at least one.
    /// - Returns: The signal of arrays.
    @inlinable
    public func collect(count: Int) -> Signal<[Value]> {
        collecting(count: count, every: .zero, scheduler: ImmediateScheduler())
    }

    /// A signal of arrays of the values this signal delivers within windows of `interval` (S18).
    ///
    /// The first value after a quiet spell opens a window; when `interval` has passed, the values of the window are
    /// delivered as one array, from the scheduler. A window that saw no value delivers nothing, and no timer runs
    /// while no value comes.
    ///
    /// ```swift
    /// let batches = events.collect(every: .seconds(1), scheduler: MainScheduler())
    /// ```
    ///
    /// The open window is dropped when the signal loses its last observer; if this signal finishes, its values are
    /// delivered at once.
    ///
    /// - Parameters:
    ///   - interval: How long a window stays open.
    ///   - scheduler: Where the windows' timers run and the arrays are delivered.
    /// - Returns: The signal of arrays.
    @inlinable
    public func collect<S: Scheduler>(every interval: Duration, scheduler: S) -> Signal<[Value]> {
        collecting(count: nil, every: interval, scheduler: scheduler)
    }

    /// Both forms of `collect`: by count when `count` is given (the scheduler is then unused), else by time.
    @inlinable
    func collecting<S: Scheduler>(count: Int?, every interval: Duration, scheduler: S) -> Signal<[Value]> {
        Signal<[Value]> { downstream in
            let box = CollectBox<Value, S>(
                count: count, interval: interval, scheduler: scheduler, downstream: downstream)
            let upstream = self.link(into: downstream, upstreamEnd: .handled { box.upstreamFinished() }) {
                value, context in
                box.perform(box.machine.receive(value), context)
            }
            return {
                upstream()
                box.cancel()
            }
        }
    }
}

/// The live state of one connected `collect`.
@usableFromInline
final class CollectBox<Value, S: Scheduler> {
    @usableFromInline let interval: Duration
    @usableFromInline let scheduler: S
    @usableFromInline let downstream: Signal<[Value]>
    @exclusivity(unchecked) @usableFromInline var machine: CollectMachine<Value>
    @exclusivity(unchecked) @usableFromInline var timer: ScheduledWork?

    @inlinable
    init(count: Int?, interval: Duration, scheduler: S, downstream: Signal<[Value]>) {
        self.interval = interval
        self.scheduler = scheduler
        self.downstream = downstream
        machine = CollectMachine(count: count)
    }

    /// Carries out an action; `context` is the upstream delivery's, or nil when the timer delivers.
    @inlinable
    func perform(_ action: CollectMachine<Value>.Action, _ context: DeliveryContext?) {
        switch action {
        case .none: break
        case .openWindow:
            let work = scheduler.schedule(after: interval) { self.windowClosed() }
            if !work.isDone { timer = work }
        case .emit(let values):
            if let context { downstream.deliver(values, context) } else { downstream.send(values) }
        }
    }

    @inlinable
    func windowClosed() {
        timer = nil
        perform(machine.windowClosed(), nil)
    }

    @usableFromInline
    func upstreamFinished() {
        timer?.cancel()
        timer = nil
        perform(machine.upstreamFinished(), nil)
        downstream.finish()
    }

    @inlinable
    func cancel() {
        timer?.cancel()
        timer = nil
        machine.reset()
    }
}
