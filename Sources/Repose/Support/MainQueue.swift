import Dispatch

/// Tells whether code is running on the main queue, where the main actor runs, and takes a transfer's callbacks
/// there.
///
/// A queue-specific value set on the main queue answers the question on every platform, and also where the main
/// queue is drained by a thread other than the process's first one (Linux after `dispatchMain()`), which a
/// thread check would get wrong. A lookup is a thread-local read and a short walk, far cheaper than
/// `Thread.isMainThread` on Linux, which makes two system calls. Either wrong answer would only move work to
/// another thread, never break it.
enum MainQueue {
    private static let key = DispatchSpecificKey<Bool>()
    private static let marked: Bool = {
        DispatchQueue.main.setSpecific(key: key, value: true)
        return true
    }()

    /// Whether the caller runs on the main queue.
    static var isCurrent: Bool {
        guard marked else { return false }
        return DispatchQueue.getSpecific(key: key) == true
    }

    /// Runs `work` on the main actor, in the order work is handed over: in place when the caller is on the main
    /// queue (the stub provider, so that a test sees a callback's effect as soon as it makes it), otherwise in a
    /// block on the main queue, which keeps the order. The route by which a transfer's callbacks reach the main
    /// actor.
    static func run(_ work: @escaping @MainActor () -> Void) {
        if isCurrent {
            MainActor.assumeIsolated(work)
        } else {
            DispatchQueue.main.async { MainActor.assumeIsolated(work) }
        }
    }
}
