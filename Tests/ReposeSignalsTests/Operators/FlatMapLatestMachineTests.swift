import Testing

@testable import ReposeSignals

@Suite("FlatMapLatestMachine")
struct FlatMapLatestMachineTests {
    @Test("S12 only the newest inner signal's values are accepted")
    func newestOnly() {
        var machine = FlatMapLatestMachine()
        let first = machine.switchToNewInner()
        #expect(machine.accepts(first))
        let second = machine.switchToNewInner()
        #expect(!machine.accepts(first))
        #expect(machine.accepts(second))
    }

    @Test("S12 nothing is accepted after disconnecting")
    func disconnected() {
        var machine = FlatMapLatestMachine()
        let current = machine.switchToNewInner()
        machine.disconnect()
        #expect(!machine.accepts(current))
        #expect(!machine.isConnected)
    }
}
