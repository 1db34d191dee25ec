/// Runs every action at once, on the calling thread, ignoring the delay.
///
/// With it, time operators behave as if every interval had already passed: `debounce` and `throttle` let each
/// value through and `delay` delays nothing. Handy in previews and playgrounds.
public struct ImmediateScheduler: Scheduler, Sendable {
    /// Creates the immediate scheduler.
    @inlinable
    public init() {}

    /// Monotonic real time, like ``MainScheduler/now``.
    @inlinable
    public var now: Duration { ContinuousClock.now - realTimeOrigin }

    /// Runs `action` before returning.
    ///
    /// - Parameters:
    ///   - delay: Ignored.
    ///   - action: The work to run.
    /// - Returns: Work that has already run.
    public func schedule(after delay: Duration, _ action: @escaping () -> Void) -> ScheduledWork {
        let work = ScheduledWork(action)
        work.run()
        return work
    }
}
