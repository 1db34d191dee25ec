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
        windowed(ThrottleMachine(latest: latest), every: interval, scheduler: scheduler)
    }
}
