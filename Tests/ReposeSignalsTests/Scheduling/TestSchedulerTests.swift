import Foundation
import Testing

@testable import ReposeSignals

@Suite("TestScheduler")
struct TestSchedulerTests {
    let scheduler = TestScheduler()
    let log = RecordingLog()

    @Test("S13 nothing runs until virtual time is advanced, then work runs in due-time order")
    func dueTimeOrder() {
        _ = scheduler.schedule(after: .seconds(2)) { self.log.append("two at \(self.scheduler.now)") }
        _ = scheduler.schedule(after: .seconds(1)) { self.log.append("one at \(self.scheduler.now)") }
        _ = scheduler.schedule(after: .seconds(1)) { self.log.append("one again") }
        #expect(log.events.isEmpty)
        scheduler.advance(by: .seconds(1))
        #expect(log.events == ["one at 1.0 seconds", "one again"])
        scheduler.advance(by: .seconds(5))
        #expect(log.events.last == "two at 2.0 seconds")
        #expect(scheduler.now == .seconds(6))
    }

    @Test("S13 work scheduled by running work runs in the same advance when it falls due")
    func nestedScheduling() {
        _ = scheduler.schedule(after: .seconds(1)) {
            self.log.append("outer")
            _ = self.scheduler.schedule(after: .seconds(1)) { self.log.append("inner") }
        }
        scheduler.advance(by: .seconds(2))
        #expect(log.events == ["outer", "inner"])
    }

    @Test("cancelled work never runs and no longer counts as pending")
    func cancel() {
        let work = scheduler.schedule(after: .seconds(1)) { self.log.append("ran") }
        #expect(scheduler.pendingCount == 1)
        work.cancel()
        #expect(scheduler.pendingCount == 0)
        scheduler.run()
        #expect(log.events.isEmpty)
        #expect(work.isDone)
    }

    @Test("run executes everything and moves the clock to the last due time")
    func runAll() {
        _ = scheduler.schedule(after: .seconds(3)) { self.log.append("c") }
        _ = scheduler.schedule(after: .zero) { self.log.append("a") }
        _ = scheduler.schedule(after: .seconds(-1)) { self.log.append("b") }
        scheduler.run()
        #expect(log.events == ["a", "b", "c"])
        #expect(scheduler.now == .seconds(3))
    }

    @Test("the immediate scheduler runs work before returning")
    func immediate() {
        let work = ImmediateScheduler().schedule(after: .seconds(10)) { self.log.append("now") }
        #expect(log.events == ["now"])
        #expect(work.isDone)
    }
}

@Suite("TestScheduler across threads")
struct TestSchedulerThreadTests {
    @Test("S13 its time may be read from other threads while the test advances it")
    func readsFromOtherThreads() async {
        let scheduler = TestScheduler(now: .seconds(1000))
        let reader = Task.detached {
            var latest = Duration.zero
            for _ in 0..<10_000 {
                let now = scheduler.now
                precondition(now >= latest, "time went backwards")
                latest = now
            }
            return latest
        }
        for _ in 0..<1_000 {
            scheduler.advance(by: .milliseconds(1))
        }
        let seen = await reader.value
        #expect(seen >= .seconds(1000) && seen <= .seconds(1001))
        #expect(scheduler.now == .seconds(1001))
    }
}
