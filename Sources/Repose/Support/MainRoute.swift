import Dispatch

/// The one way Repose's work comes back to the main actor from another thread: a block on the main queue, which is
/// where the main actor runs. Blocks run in the order they were sent, so what one thread sends in order arrives in
/// order, and a test that resumes on the main actor after a provider's call finds what that call sent already
/// delivered.
///
/// A cache read's result, the outbox's files read and flushed, an event stream's news and a streamed load's growth
/// come this way. A network
/// request's progress, news and outcome take the same way through its attempt's inbox, whose block the attempt posts
/// itself (`TransferAttempt`), so that it carries nothing but the attempt.
enum MainRoute {
    static func send(_ work: @escaping @MainActor @Sendable () -> Void) {
        DispatchQueue.main.async { MainActor.assumeIsolated(work) }
    }
}
