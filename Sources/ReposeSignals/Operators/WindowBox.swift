/// What the machine of an operator that works in windows of time (`throttle`, `collect`) asks for.
@usableFromInline
enum WindowAction<Output> {
    /// Nothing to do.
    case none
    /// A window opened: start its timer.
    case openWindow
    /// Deliver this value.
    case emit(Output)
    /// Deliver this value now and start a window timer.
    case emitAndOpenWindow(Output)
}

/// The logic of an operator that works in windows of time, with no signals or time involved.
@usableFromInline
protocol WindowMachine {
    associatedtype Input
    associatedtype Output
    /// A value arrived.
    mutating func receive(_ value: Input) -> WindowAction<Output>
    /// The window's timer fired.
    mutating func windowClosed() -> WindowAction<Output>
    /// The upstream finished: what to deliver now, if anything.
    mutating func upstreamFinished() -> WindowAction<Output>
    /// Whether nothing is held back: once the upstream has finished, the signal finishes then.
    var isEmpty: Bool { get }
    /// Forgets everything, as when the signal loses its last observer.
    mutating func reset()
}

extension Signal {
    /// A signal of what `machine` makes of this signal's values, with windows of `interval` timed on `scheduler`.
    @inlinable
    func windowed<Machine: WindowMachine, S: Scheduler>(
        _ machine: Machine, every interval: Duration, scheduler: S
    ) -> Signal<Machine.Output> where Machine.Input == Value {
        Signal<Machine.Output> { downstream in
            let box = WindowBox(machine, interval: interval, scheduler: scheduler, downstream: downstream)
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

/// The live state of one connected `throttle` or `collect`.
@usableFromInline
final class WindowBox<Machine: WindowMachine, S: Scheduler> {
    @usableFromInline let interval: Duration
    @usableFromInline let scheduler: S
    @usableFromInline let downstream: Signal<Machine.Output>
    @exclusivity(unchecked) @usableFromInline var machine: Machine
    @exclusivity(unchecked) @usableFromInline var timer: ScheduledWork?
    @exclusivity(unchecked) @usableFromInline var isUpstreamFinished = false

    @inlinable
    init(_ machine: Machine, interval: Duration, scheduler: S, downstream: Signal<Machine.Output>) {
        self.interval = interval
        self.scheduler = scheduler
        self.downstream = downstream
        self.machine = machine
    }

    /// Carries out an action; `context` is the upstream delivery's, or nil when the timer delivers.
    @inlinable
    func perform(_ action: WindowAction<Machine.Output>, _ context: DeliveryContext?) {
        switch action {
        case .none: return
        case .openWindow: break
        case .emit(let value), .emitAndOpenWindow(let value):
            if let context { downstream.deliver(value, context) } else { downstream.send(value) }
            if case .emit = action { return }
        }
        let work = scheduler.schedule(after: interval) { self.windowClosed() }
        if !work.isDone { timer = work }
    }

    @inlinable
    func windowClosed() {
        timer = nil
        perform(machine.windowClosed(), nil)
        if isUpstreamFinished, machine.isEmpty { downstream.finish() }
    }

    @usableFromInline
    func upstreamFinished() {
        isUpstreamFinished = true
        perform(machine.upstreamFinished(), nil)
        if machine.isEmpty { downstream.finish() }
    }

    @inlinable
    func cancel() {
        timer?.cancel()
        timer = nil
        machine.reset()
    }
}
