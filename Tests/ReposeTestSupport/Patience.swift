import Testing

/// How long a test waits, and how long it may run: bounds against a hang, never the normal path.
///
/// A wait ends on its condition (a response, a server's mark, a child's exit, objects freed); the bound only turns a
/// regression into a failure that names what never came, instead of a hung run. So it is generous: the whole suite
/// runs in parallel, on two cores shared with other work and sometimes under a sanitizer, and a delivery can wait its
/// turn on the main actor for many seconds.
enum Patience {
    /// The bound on any one wait.
    static let wait = Duration.seconds(60)
}

extension Trait where Self == TimeLimitTrait {
    /// A test's time limit, a guard against what no wait bounds: twice its longest wait (``Patience/wait``) and the
    /// lifetime check after it (as long again), so that a wait that runs out fails with its own message first. A
    /// test's time also counts the turns it waits behind the tests running beside it.
    static var hangLimit: Self { .timeLimit(.minutes(4)) }
}
