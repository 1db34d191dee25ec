/// Runs work after a delay; time operators such as ``Signal/debounce(for:scheduler:)`` take one.
///
/// Use ``MainScheduler`` in apps, ``TestScheduler`` in tests (virtual time, no sleeping), and
/// ``ImmediateScheduler`` when time should not matter at all. A scheduler must run actions in the isolation
/// domain of the signal graph that uses it.
public protocol Scheduler {
    /// The scheduler's current time, measured from an origin of its own choosing.
    var now: Duration { get }

    /// Runs `action` once, after `delay` has passed, unless the returned work is cancelled first.
    ///
    /// - Parameters:
    ///   - delay: How long to wait; zero or negative means as soon as possible.
    ///   - action: The work to run.
    /// - Returns: The scheduled work, which can be cancelled.
    func schedule(after delay: Duration, _ action: @escaping () -> Void) -> ScheduledWork

    /// Whether ``now`` is virtual time that moves only when told to (``TestScheduler``), rather than real time.
    /// A `Service` takes a virtual scheduler's time as its clock as is, and calibrates a real one to the date once.
    var usesVirtualTime: Bool { get }
}

extension Scheduler {
    /// Real time, unless the scheduler says otherwise.
    public var usesVirtualTime: Bool { false }
}
