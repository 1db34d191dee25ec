import Dispatch

/// Runs actions on the main queue (the main actor's executor) after real time passes.
///
/// Use it from signal graphs that live on the main actor.
public struct MainScheduler: Scheduler, Sendable {
    /// Creates the main scheduler.
    @inlinable
    public init() {}

    /// Monotonic time since the first use of a real-time scheduler in this process.
    @inlinable
    public var now: Duration { ContinuousClock.now - realTimeOrigin }

    /// Runs `action` on the main queue after `delay`.
    ///
    /// - Parameters:
    ///   - delay: How long to wait.
    ///   - action: The work to run.
    /// - Returns: The scheduled work, which can be cancelled.
    public func schedule(after delay: Duration, _ action: @escaping () -> Void) -> ScheduledWork {
        let work = ScheduledWork(action)
        DispatchQueue.main.asyncAfter(deadline: .now() + dispatchInterval(delay)) { work.run() }
        return work
    }
}

/// The origin of real-time `now`: first use, so the offsets stay small.
@usableFromInline let realTimeOrigin = ContinuousClock.now

func dispatchInterval(_ duration: Duration) -> DispatchTimeInterval {
    let (seconds, attoseconds) = duration.components
    guard seconds >= 0 else { return .nanoseconds(0) }
    let nanoseconds = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    guard !nanoseconds.overflow, nanoseconds.partialValue < Int64(Int.max) else { return .never }
    return .nanoseconds(Int(nanoseconds.partialValue + attoseconds / 1_000_000_000))
}
