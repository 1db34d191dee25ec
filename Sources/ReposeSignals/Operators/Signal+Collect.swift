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
        windowed(CollectMachine(count: count), every: .zero, scheduler: ImmediateScheduler())
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
        windowed(CollectMachine(count: nil), every: interval, scheduler: scheduler)
    }
}
