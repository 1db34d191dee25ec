import Testing

@testable import ReposeSignals

@Suite("PrefixMachine")
struct PrefixMachineTests {
    @Test("S17 a length of n delivers n values, the last one finishing, and ignores the rest")
    func counts() {
        var machine = PrefixMachine(maxLength: 2)
        #expect(machine.receive() == .deliver)
        #expect(machine.receive() == .deliverAndFinish)
        #expect(machine.receive() == .ignore)
        #expect(machine.isDone)
    }

    @Test("S17 a length of zero or less is done from the start")
    func zero() {
        #expect(PrefixMachine(maxLength: 0).isDone)
        #expect(PrefixMachine(maxLength: -3).isDone)
    }

    @Test("S17 while the predicate holds values pass; the first failure finishes without delivering")
    func predicate() {
        var machine = PrefixMachine(maxLength: .max)
        #expect(machine.receive(passes: true) == .deliver)
        #expect(machine.receive(passes: true) == .deliver)
        #expect(machine.receive(passes: false) == .finish)
        #expect(machine.receive(passes: true) == .ignore)
    }
}
