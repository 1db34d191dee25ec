/// One action waiting on a ``Scheduler``; cancel it to make sure it never runs.
///
/// Schedulers create it around the action and call ``run()`` when it is due. Cancelling releases the action
/// at once.
// @unchecked Sendable: a scheduler may hand this object to the queue or thread it runs actions on, but every
// call to `run()` and `cancel()` happens in the single isolation domain of the signal graph that owns it.
public final class ScheduledWork: @unchecked Sendable {
    @usableFromInline var action: (() -> Void)?

    /// Wraps `action` for a scheduler to run later.
    ///
    /// - Parameter action: The work to run.
    @inlinable
    public init(_ action: @escaping () -> Void) {
        self.action = action
    }

    /// Whether the work has run or been cancelled.
    @inlinable
    public var isDone: Bool { action == nil }

    /// Runs the action if it has neither run nor been cancelled.
    @inlinable
    public func run() {
        guard let action else { return }
        self.action = nil
        action()
    }

    /// Prevents the action from running and releases it. Harmless to call more than once or after it ran.
    @inlinable
    public func cancel() {
        action = nil
    }
}
