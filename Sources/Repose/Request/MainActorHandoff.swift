import Foundation

/// Carries a network request's progress reports and its outcome from the provider's thread to the main actor.
///
/// What arrives before the main actor has picked up earlier arrivals rides the hop already on its way, so a
/// provider that reports progress and then completes at once (the stub provider, a fast response) costs one hop
/// instead of two. Order is kept: every progress value, in order, then the outcome.
///
/// A task awaiting the request on the main actor can carry the hop itself (``carryNextHop()``): the handoff then
/// resumes that task instead of scheduling a hop of its own, and the task delivers as soon as it runs. Resuming an
/// awaiting task is a trip to the main actor anyway, so an `await` costs one trip instead of two.
///
/// A provider that calls back from a plain block on the main queue (the stub provider) needs no hop at all: the
/// main actor runs on the main queue, so the handoff delivers at once, unless a task runs there (a test's code
/// calling a manual network, say, which expects the delivery later) or the provider has not returned from
/// `startRequest` yet or is being cancelled (Repose's own code is still running below it). See
/// ``allowDirectDelivery(_:)``.
///
/// `@unchecked Sendable`: the pending values, the flags and the waiter are only touched while holding `lock`, and
/// `deliver` is called on the main actor, outside the lock.
final class MainActorHandoff: @unchecked Sendable {
    typealias Delivery = @MainActor @Sendable ([Double], ResponseProcessor.Outcome?) -> Void

    private let lock = NSLock()
    private var progress: [Double] = []
    private var outcome: UncheckedTransfer<ResponseProcessor.Outcome>?
    private var isHopPending = false
    /// Whether a value sent from a plain main-queue block may be delivered at once; see ``allowDirectDelivery(_:)``.
    private var isDirectDeliveryAllowed = false
    private var waiter: CheckedContinuation<Void, Never>?
    /// Turns the provider's byte counts into progress values, under the same lock: one lock per request, not two.
    private var sampler: ProgressSampler?
    private let deliver: Delivery

    init(sampler: ProgressSampler? = nil, deliver: @escaping Delivery) {
        self.sampler = sampler
        self.deliver = deliver
    }

    /// Hands a progress value over; call it from any thread.
    func send(progress fraction: Double) {
        schedule { progress.append(fraction) }
    }

    /// Hands over the progress value that `sample` makes, if it makes one worth reporting (see
    /// ``ProgressSampler``); call it from any thread.
    func send(sample: TransferProgress) {
        let fraction = lock.withLock { sampler?.report(sample) }
        if let fraction { send(progress: fraction) }
    }

    /// The waiting part's progress value now, if worth reporting, and whether the request still waits; see
    /// ``ProgressSampler/reportWaiting()``.
    func reportWaiting() -> (fraction: Double?, isWaiting: Bool) {
        lock.withLock {
            // A tick's value is broadcast at once: it must not overtake bytes' values still on their way.
            guard progress.isEmpty else { return sampler.map { _ in (nil, true) } }
            return sampler?.reportWaiting()
        } ?? (nil, false)
    }

    /// Hands the outcome over; call it from any thread, once.
    func send(outcome: UncheckedTransfer<ResponseProcessor.Outcome>) {
        schedule { self.outcome = outcome }
    }

    /// Allows or forbids delivering at once a value sent from a plain block on the main queue. The network delegate
    /// allows it once the provider's `startRequest` has returned, and forbids it again before cancelling, so that a
    /// provider calling back from inside either call never runs observers in the middle of Repose's own work.
    func allowDirectDelivery(_ isAllowed: Bool) {
        lock.withLock { isDirectDeliveryAllowed = isAllowed }
    }

    private func schedule(_ store: () -> Void) {
        let (needsHop, carrier, mayDeliverNow): (Bool, CheckedContinuation<Void, Never>?, Bool) = lock.withLock {
            store()
            guard !isHopPending else { return (false, nil, false) }
            isHopPending = true
            defer { waiter = nil }
            return (true, waiter, isDirectDeliveryAllowed)
        }
        guard needsHop else { return }
        if let carrier {
            carrier.resume()
            return
        }
        let isInTask = Self.isInTask
        if mayDeliverNow, !isInTask, MainQueue.isCurrent {
            // Provably on the main thread: the main queue (a queue-specific mark says so) runs the main actor's jobs,
            // and no task runs here. Saves the hop a stub load made on top of the provider's own, which was most of
            // a chained stub load's time on the process's main thread.
            MainActor.assumeIsolated { drain() }
        } else if isInTask {
            // A task's hop is a task too, so that what the caller's task carries (its log settings, say) reaches
            // the delivery.
            Task { @MainActor in self.drain() }
        } else {
            // From a plain thread (a URLSession queue), a main-queue block: the main actor runs on the main queue
            // either way, and a block costs less than creating a task and switching to it.
            DispatchQueue.main.async { MainActor.assumeIsolated { self.drain() } }
        }
    }

    /// Whether the caller runs inside a task: a thread-local read.
    private static var isInTask: Bool {
        withUnsafeCurrentTask { $0 != nil }
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
