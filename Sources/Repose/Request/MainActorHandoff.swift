import Foundation

/// Carries a network request's progress reports and its outcome from the provider's thread to the main actor.
///
/// What arrives before the main actor has picked up earlier arrivals rides the hop already on its way, so a
/// provider that reports progress and then completes at once (the stub provider, a fast response) costs one hop
/// instead of two. Order is kept: every progress value, in order, then the outcome.
///
/// A task awaiting the request on the main actor can carry the hop itself (``carryNextHop()``): the handoff then
/// resumes that task instead of scheduling a hop of its own, and the task delivers as soon as it runs. Resuming an
/// awaiting task is a trip to the main actor anyway, so an `await` costs one trip instead of two (measured: 1.5 %
/// of a 1 KB loopback GET).
///
/// `@unchecked Sendable`: the pending values, the flag and the waiter are only touched while holding `lock`, and
/// `deliver` is called on the main actor, outside the lock.
final class MainActorHandoff: @unchecked Sendable {
    typealias Delivery = @MainActor @Sendable ([Double], ResponseProcessor.Outcome?) -> Void

    private let lock = NSLock()
    private var progress: [Double] = []
    private var outcome: UncheckedTransfer<ResponseProcessor.Outcome>?
    private var isHopPending = false
    private var waiter: CheckedContinuation<Void, Never>?
    private let deliver: Delivery

    init(deliver: @escaping Delivery) {
        self.deliver = deliver
    }

    /// Hands a progress value over; call it from any thread.
    func send(progress fraction: Double) {
        schedule { progress.append(fraction) }
    }

    /// Hands the outcome over; call it from any thread, once.
    func send(outcome: UncheckedTransfer<ResponseProcessor.Outcome>) {
        schedule { self.outcome = outcome }
    }

    private func schedule(_ store: () -> Void) {
        let (needsHop, carrier): (Bool, CheckedContinuation<Void, Never>?) = lock.withLock {
            store()
            guard !isHopPending else { return (false, nil) }
            isHopPending = true
            defer { waiter = nil }
            return (true, waiter)
        }
        guard needsHop else { return }
        if let carrier {
            carrier.resume()
        } else {
            Task { @MainActor in self.drain() }
        }
    }

    /// Waits until the next hop is due, then delivers what it carries; returns `false` at once if another task
    /// already waits. Returns early, having delivered only what was due, when ``releaseWaiter()`` is called (the
    /// request completed some other way, or was cancelled): the caller checks what it waits for and calls again if
    /// need be.
    @MainActor
    func carryNextHop() async -> Bool {
        var accepted = false
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            accepted = lock.withLock {
                guard waiter == nil else { return false }
                waiter = continuation
                return true
            }
            if !accepted { continuation.resume() }
        }
        guard accepted else { return false }
        drain()
        return true
    }

    /// Whether a task waits to carry the next hop (for tests).
    var hasWaiter: Bool { lock.withLock { waiter != nil } }

    /// Resumes the waiting task, if any, though no hop is due.
    func releaseWaiter() {
        let released = lock.withLock {
            defer { waiter = nil }
            return waiter
        }
        released?.resume()
    }

    @MainActor
    private func drain() {
        let (isDue, fractions, outcome) = lock.withLock {
            defer {
                progress = []
                self.outcome = nil
                isHopPending = false
            }
            return (isHopPending, progress, self.outcome)
        }
        // The hop the waiting task carried leaves nothing for a scheduled one still on its way, and vice versa.
        guard isDue else { return }
        deliver(fractions, outcome?.value)
    }
}
