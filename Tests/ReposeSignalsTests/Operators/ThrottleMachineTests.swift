import Testing

@testable import ReposeSignals

@Suite("ThrottleMachine")
struct ThrottleMachineTests {
    func emitted(_ action: ThrottleMachine<Int>.Action) -> Int? {
        if case .emitAndOpenWindow(let value) = action { value } else { nil }
    }

    @Test("S11 a value with no open window is emitted and opens one")
    func leading() {
        var machine = ThrottleMachine<Int>(latest: true)
        #expect(emitted(machine.receive(1)) == 1)
        #expect(machine.isWindowOpen)
        #expect(emitted(machine.receive(2)) == nil)
    }

    @Test("S11 at the window's end the collected value is the last or the first", arguments: [(true, 3), (false, 2)])
    func trailing(latest: Bool, expected: Int) {
        var machine = ThrottleMachine<Int>(latest: latest)
        _ = machine.receive(1)
        _ = machine.receive(2)
        _ = machine.receive(3)
        #expect(emitted(machine.windowClosed()) == expected)
        #expect(machine.isWindowOpen)
        #expect(emitted(machine.windowClosed()) == nil)
        #expect(!machine.isWindowOpen)
    }

    @Test("S11 a reset drops the collected value and closes the window")
    func reset() {
        var machine = ThrottleMachine<Int>(latest: true)
        _ = machine.receive(1)
        _ = machine.receive(2)
        machine.reset()
        #expect(machine.collected == nil)
        #expect(!machine.isWindowOpen)
    }
}
