import Foundation
import ReposeSignals

/// The harness's scheduler seen as seconds since 1970, for tests that think in dates: setting `now` advances the
/// scheduler (running whatever falls due on the way), because the scheduler is the service's one clock.
final class ManualClock: Sendable {
    let scheduler: TestScheduler

    init(_ scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    /// The scheduler's time in seconds. Time only moves forward: setting an earlier time is a test bug.
    var now: TimeInterval {
        get {
            let (seconds, attoseconds) = scheduler.now.components
            return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
        }
        set {
            precondition(newValue >= now, "a test moved the clock backwards")
            scheduler.advance(by: .nanoseconds(Int64(((newValue - now) * 1e9).rounded())))
        }
    }
}
