import Dispatch

/// The one way Repose's work comes back to the main actor from another thread: a network request's progress, news
/// and outcome (through its attempt's inbox), a cache read's result, the outbox's files read and flushed.
///
/// A block on the main queue, which is where the main actor runs: blocks run in the order they were sent, so what one
/// thread sends in order arrives in order, and a test that resumes on the main actor after a provider's call finds
/// what that call sent already delivered.
enum MainRoute {
    static func send(_ work: @escaping @MainActor @Sendable () -> Void) {
        DispatchQueue.main.async { MainActor.assumeIsolated(work) }
    }

    /// Runs `work` with `target` on the main actor: the same route, for a `work` that captures nothing, so that a
    /// trip costs one block and no closure of its own (a network request's every response takes it).
    static func send<Target: AnyObject & Sendable>(
        to target: Target, _ work: @escaping @MainActor @Sendable (Target) -> Void
    ) {
        DispatchQueue.main.async { MainActor.assumeIsolated { work(target) } }
    }
}
