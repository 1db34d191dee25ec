import Testing

@testable import ReposeSignals

@Suite("MainScheduler")
@MainActor
struct MainSchedulerTests {
    @Test("the main scheduler runs work on the main actor once the delay has passed", .timeLimit(.minutes(1)))
    func runsOnMain() async {
        let ran: Bool = await withCheckedContinuation { continuation in
            _ = MainScheduler().schedule(after: .zero) {
                MainActor.assumeIsolated { continuation.resume(returning: true) }
            }
        }
        #expect(ran)
    }

    @Test("cancelled main-scheduler work never runs", .timeLimit(.minutes(1)))
    func cancelled() async {
        let log = RecordingLog()
        let work = MainScheduler().schedule(after: .zero) { log.append("cancelled work ran") }
        work.cancel()
        // Work queued after the cancelled one runs after it, so reaching it proves the first one was skipped.
        await withCheckedContinuation { continuation in
            _ = MainScheduler().schedule(after: .zero) { continuation.resume() }
        }
        #expect(log.events.isEmpty)
    }

    @Test("the main scheduler's clock does not go backwards")
    func monotonic() {
        let scheduler = MainScheduler()
        let first = scheduler.now
        let second = scheduler.now
        #expect(second >= first)
    }
}
