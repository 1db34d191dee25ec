import Dispatch

/// Tells tests whether code runs on the main queue, by a queue-specific value of the tests' own (independent of the
/// check Repose makes). Unlike `Thread.isMainThread`, it is right also where the main queue is drained by a thread
/// other than the process's first one.
enum MainQueueProbe {
    private static let key = DispatchSpecificKey<Bool>()
    private static let marked: Bool = {
        DispatchQueue.main.setSpecific(key: key, value: true)
        return true
    }()

    /// Whether the caller runs on the main queue.
    static var isCurrent: Bool {
        marked && DispatchQueue.getSpecific(key: key) == true
    }
}
