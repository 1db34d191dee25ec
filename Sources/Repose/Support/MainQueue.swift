import Dispatch

/// Tells whether code is running on the main queue, where the main actor runs.
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
}
