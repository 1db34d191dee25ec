import Foundation

/// Carries a network request's progress reports and its outcome from the provider's thread to the main actor.
///
/// What arrives before the main actor has picked up earlier arrivals rides the hop already on its way, so a
/// provider that reports progress and then completes at once (the stub provider, a fast response) costs one hop
/// instead of two. Order is kept: every progress value, in order, then the outcome.
///
/// `@unchecked Sendable`: the pending values and the flag are only touched while holding `lock`, and `deliver` is
/// called on the main actor, outside the lock.
final class MainActorHandoff: @unchecked Sendable {
    typealias Delivery = @MainActor @Sendable ([Double], ResponseProcessor.Outcome?) -> Void

    private let lock = NSLock()
    private var progress: [Double] = []
    private var outcome: UncheckedTransfer<ResponseProcessor.Outcome>?
    private var isHopPending = false
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
        let needsHop: Bool = lock.withLock {
            store()
            defer { isHopPending = true }
            return !isHopPending
        }
        if needsHop {
            Task { @MainActor in self.drain() }
        }
    }

    @MainActor
    private func drain() {
        let (fractions, outcome) = lock.withLock {
            defer {
                progress = []
                self.outcome = nil
                isHopPending = false
            }
            return (progress, self.outcome)
        }
        deliver(fractions, outcome?.value)
    }
}
