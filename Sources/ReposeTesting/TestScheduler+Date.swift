import Foundation
import ReposeSignals

extension TestScheduler {
    /// Creates a scheduler whose virtual time starts at `date`, for a test that uses it as a service's clock.
    ///
    /// A `Service` reads its scheduler's time as seconds since 1970, so timestamps it stamps on data and errors
    /// are `date.timeIntervalSince1970` plus whatever time the test has advanced:
    ///
    /// ```swift
    /// let scheduler = TestScheduler(date: Date(timeIntervalSince1970: 1_800_000_000))
    /// scheduler.advance(by: .seconds(30))
    /// scheduler.date  // 30 s after the start, as a Date
    /// ```
    ///
    /// - Parameter date: Where virtual time starts.
    public convenience init(date: Date) {
        self.init(now: .seconds(date.timeIntervalSince1970))
    }

    /// The virtual time as a date: what a service on this scheduler takes "now" to be.
    public var date: Date {
        let (seconds, attoseconds) = now.components
        return Date(timeIntervalSince1970: Double(seconds) + Double(attoseconds) / 1e18)
    }
}
