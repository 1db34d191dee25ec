/// The logic of `debounce`: when to emit, given input times and timer firings, with no scheduler involved.
///
/// One timer at a time: a burst of inputs only moves the deadline, and the timer, when it fires early, asks to
/// be started again for the remainder. That keeps a burst free of scheduling work and allocation.
@usableFromInline
struct DebounceMachine<Value> {
    @usableFromInline
    enum TimerOutcome {
        /// Deliver this value now.
        case emit(Value)
        /// A newer input moved the deadline: start the timer again for this long.
        case wait(Duration)
        /// Nothing is pending.
        case idle
    }

    @usableFromInline let interval: Duration
    /// The value to deliver; the timer runs exactly while there is one.
    @usableFromInline var pending: Value?
    @usableFromInline var deadline: Duration = .zero
    @usableFromInline var timerDue: Duration = .zero

    @inlinable
    init(interval: Duration) {
        self.interval = max(interval, .zero)
    }

    @inlinable
    var isTimerRunning: Bool { pending != nil }

    /// Records an input at time `now`; returns how long to start the timer for, or nil if one is running.
    @inlinable
    mutating func receive(_ value: Value, now: Duration) -> Duration? {
        let wasRunning = isTimerRunning
        pending = value
        deadline = now + interval
        guard !wasRunning else { return nil }
        timerDue = deadline
        return interval
    }

    /// The timer fired at time `now`.
    @inlinable
    mutating func timerFired(now: Duration) -> TimerOutcome {
        guard let value = pending else { return .idle }
        if deadline > timerDue {
            let remaining = deadline - now
            if remaining > .zero {
                timerDue = deadline
                return .wait(remaining)
            }
        }
        pending = nil
        return .emit(value)
    }

    /// Drops the pending value, as when the subscription ends (S10).
    @inlinable
    mutating func reset() {
        pending = nil
    }
}
