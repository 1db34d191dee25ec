import Testing

@testable import ReposeSignals

@Suite("DebounceMachine")
struct DebounceMachineTests {
    @Test("S10 the first input starts the timer for one interval; later inputs only move the deadline")
    func timerOnce() {
        var machine = DebounceMachine<Int>(interval: .seconds(1))
        let first = machine.receive(1, now: .zero)
        let second = machine.receive(2, now: .milliseconds(500))
        #expect(first == .seconds(1))
        #expect(second == nil)
        #expect(machine.deadline == .milliseconds(1_500))
    }

    @Test("S10 an early firing asks to wait for the remainder, then emits the latest value")
    func waitsForRemainder() {
        var machine = DebounceMachine<Int>(interval: .seconds(1))
        _ = machine.receive(1, now: .zero)
        _ = machine.receive(2, now: .milliseconds(500))
        guard case .wait(let remaining) = machine.timerFired(now: .seconds(1)) else {
            Issue.record("expected to wait")
            return
        }
        #expect(remaining == .milliseconds(500))
        guard case .emit(let value) = machine.timerFired(now: .milliseconds(1_500)) else {
            Issue.record("expected to emit")
            return
        }
        #expect(value == 2)
        #expect(!machine.isTimerRunning)
    }

    @Test("S10 a reset drops the pending value")
    func resetDrops() {
        var machine = DebounceMachine<Int>(interval: .seconds(1))
        _ = machine.receive(1, now: .zero)
        machine.reset()
        guard case .idle = machine.timerFired(now: .seconds(1)) else {
            Issue.record("expected nothing pending")
            return
        }
        #expect(machine.pending == nil)
    }
}
