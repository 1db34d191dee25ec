import Foundation
import Repose
import ReposeTesting
import Testing

@testable import ReposeTestSupport

/// A virtual-time scheduler as a service's clock: Repose adds dates to ReposeSignals' `TestScheduler`, which imports
/// no Foundation.
@Suite("A test scheduler as a date clock")
struct TestSchedulerDateTests {
    @Test("S13 a scheduler started at a date reads its virtual time back as a date, fractions of a second included")
    func dateClock() {
        let clock = TestScheduler(date: Date(timeIntervalSince1970: 1_800_000_000.25))
        #expect(clock.now == .milliseconds(1_800_000_000_250))
        clock.advance(by: .milliseconds(500))
        #expect(clock.date == Date(timeIntervalSince1970: 1_800_000_000.75))
    }
}
