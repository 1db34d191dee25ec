extension Signal where Value == Duration {
    /// A signal that ticks every `interval` while it is observed, delivering the scheduler's time at each tick (S20).
    ///
    /// The timer starts when the signal gains its first observer, with the first tick one interval later, and stops
    /// when the last observer leaves: nothing runs while nobody listens. Ticks keep to multiples of the interval from
    /// the start, and are delivered from the scheduler (virtual time with a ``TestScheduler``).
    ///
    /// ```swift
    /// let clock = Signal.timer(every: .seconds(1), scheduler: MainScheduler())
    /// clock.observe(owner: self) { screen, _ in screen.refreshRelativeDates() }
    /// ```
    ///
    /// With ``ImmediateScheduler``, which ignores delays, the timer ticks once as it starts.
    ///
    /// - Parameters:
    ///   - interval: The time between ticks.
    ///   - scheduler: Where the ticks are delivered and time is read.
    /// - Returns: The signal of tick times.
    public static func timer<S: Scheduler>(every interval: Duration, scheduler: S) -> Signal<Duration> {
        Signal<Duration> { downstream in
            let box = TimerBox(interval: interval, scheduler: scheduler, downstream: downstream)
            return { box.work?.cancel() }
        }
    }
}

/// The live state of one running timer, which starts as it is made.
final class TimerBox<S: Scheduler> {
    let scheduler: S
    let downstream: Signal<Duration>
    var machine: TimerMachine
    /// The next tick, once scheduled; nil while the scheduler runs a tick within `schedule`.
    var work: ScheduledWork?

    init(interval: Duration, scheduler: S, downstream: Signal<Duration>) {
        self.scheduler = scheduler
        self.downstream = downstream
        machine = TimerMachine(interval: interval)
        schedule(after: machine.start(now: scheduler.now))
    }

    func schedule(after delay: Duration) {
        // The action holds the box weakly: a scheduler that keeps cancelled work does not keep the signal.
        let work = scheduler.schedule(after: delay) { [weak self] in self?.fire() }
        if !work.isDone { self.work = work }
    }

    func fire() {
        let now = scheduler.now
        // A scheduler that ignores delays (`ImmediateScheduler`) ran the tick inside `schedule`, before `work` was
        // set: tick once, no more, rather than for ever.
        guard work != nil else { return downstream.send(now) }
        work = nil
        schedule(after: machine.fired(now: now))
        downstream.send(now)
    }
}
