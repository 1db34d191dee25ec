import Testing

@testable import ReposeSignals

@Suite("CombineLatestMachine")
struct CombineLatestMachineTests {
    @Test("S9 nothing is scheduled until every input has delivered")
    func waitsForAll() {
        var machine = CombineLatestMachine(inputCount: 3)
        #expect(machine.receive(input: 0) == .wait)
        #expect(machine.receive(input: 0) == .wait)
        #expect(machine.receive(input: 2) == .wait)
        #expect(machine.receive(input: 1) == .schedule)
    }

    @Test("S9 changes during one delivery schedule a single emission")
    func oneEmissionPerDelivery() {
        var machine = CombineLatestMachine(inputCount: 2, seeded: true)
        #expect(machine.receive(input: 0) == .schedule)
        #expect(machine.receive(input: 1) == .alreadyScheduled)
        let first = machine.flush()
        let second = machine.flush()
        #expect(first)
        #expect(!second)
        #expect(machine.receive(input: 1) == .schedule)
    }

    @Test("S9 a reset forgets the inputs and any scheduled emission")
    func reset() {
        var machine = CombineLatestMachine(inputCount: 2)
        _ = machine.receive(input: 0)
        _ = machine.receive(input: 1)
        machine.reset()
        let flushed = machine.flush()
        #expect(!flushed)
        #expect(!machine.isReady)
        #expect(machine == CombineLatestMachine(inputCount: 2))
    }
}
