/// The logic of `Signal.timer(every:scheduler:)`: when each tick is due, with no scheduler involved (S20).
///
/// Ticks fall on multiples of the interval from the moment the timer started, so a late tick does not push the next
/// ones back; ticks missed while the scheduler was held up are not made up for: the next is the next multiple.
struct TimerMachine: Equatable {
    let interval: Duration
    var start: Duration = .zero
    /// The time the next tick is due.
    var due: Duration = .zero

    /// - Parameter interval: The time between ticks; at least one nanosecond.
    init(interval: Duration) {
        self.interval = max(interval, .nanoseconds(1))
    }

    /// Starts ticking at `now`; returns how long until the first tick.
    mutating func start(now: Duration) -> Duration {
        start = now
        due = now + interval
        return interval
    }

    /// A tick fired at `now`; returns how long until the next one.
    mutating func fired(now: Duration) -> Duration {
        due += interval
        if due <= now {
            // Held up past one or more ticks: skip to the first multiple of the interval after now.
            let missed = (now - start) / interval
            due = start + interval * (Int(missed) + 1)
        }
        return due - now
    }
}
