import Foundation

/// Holds a cache's reads at the point where each has found its entity, before it returns: what the read will deliver
/// is decided, but not yet on its way to the main actor. The test awaits the reads without blocking a thread, acts
/// meanwhile (a wipe, say), then opens the gate.
///
/// Only the cache's own queue waits at the gate; a test opens it however it ends (`defer { gate.open() }`).
final class ReadGate: @unchecked Sendable {
    // Safe: `passed`, `isOpen` and `waiters` are only touched under `condition`'s lock.
    private let condition = NSCondition()
    private var passed = 0
    private var isOpen = false
    private var waiters: [(count: Int, resume: @Sendable (Bool) -> Void)] = []

    /// Called by a read on the cache's queue once it has its entity: counts it, then waits until the gate is open.
    func pass() {
        condition.lock()
        passed += 1
        let woken = waiters.filter { $0.count <= passed }
        waiters.removeAll { $0.count <= passed }
        condition.unlock()
        for waiter in woken { waiter.resume(true) }
        condition.lock()
        while !isOpen { condition.wait() }
        condition.unlock()
    }

    /// Lets every read held now, and every later one, return.
    func open() {
        condition.lock()
        isOpen = true
        condition.broadcast()
        condition.unlock()
    }

    /// Whether `count` reads in all have reached the gate, now or within ``Patience/wait``.
    func reached(_ count: Int) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let once = ResumeOnce(continuation)
            condition.lock()
            let already = passed >= count
            if !already { waiters.append((count, once.resume)) }
            condition.unlock()
            if already {
                once.resume(true)
                return
            }
            let (seconds, attoseconds) = Patience.wait.components
            let delay = Double(seconds) + Double(attoseconds) / 1e18
            DispatchQueue.global().asyncAfter(deadline: .now() + delay) { once.resume(false) }
        }
    }
}
