import Testing

@testable import ReposeSignals

@Suite("State combineLatest")
struct StateCombineLatestTests {
    let first = MutableState(1)
    let second = MutableState("a")

    @Test("combining states replays the current pair and then every change of either")
    func pair() {
        let combined = first.state.combineLatest(second.state)
        var seen: [String] = []
        let subscription = combined.observe { seen.append("\($0)\($1)") }
        first.value = 2
        second.value = "b"
        #expect(seen == ["1a", "2a", "2b"])
        #expect(combined.value == (2, "b"))
        _ = subscription
    }

    @Test("S9 one change reaching two derived states emits one pair, never a stale one")
    func glitchFree() {
        let combined = first.state.map { $0 * 10 }.combineLatest(first.state.map { $0 + 1 })
        var seen: [String] = []
        let subscription = combined.observe { seen.append("\($0)/\($1)") }
        first.value = 2
        first.value = 3
        #expect(seen == ["10/2", "20/3", "30/4"])
        _ = subscription
    }

    @Test("three and four states combine into tuples")
    func triplesAndQuadruples() {
        let third = MutableState(true)
        let fourth = MutableState(2.5)
        let triple = first.state.combineLatest(second.state, third.state)
        let quadruple = first.state.combineLatest(second.state, third.state, fourth.state)
        var seen: [String] = []
        let subscription = quadruple.observe { seen.append("\($0)\($1)\($2)\($3)") }
        fourth.value = 3.5
        #expect(triple.value == (1, "a", true))
        #expect(seen == ["1atrue2.5", "1atrue3.5"])
        _ = subscription
    }

    @Test("an array of states combines into a state of arrays")
    func array() {
        let states = [MutableState(1), MutableState(2), MutableState(3)]
        let combined = State.combineLatest(states.map(\.state))
        let recorder = RecordingObserver<[Int]>()
        let subscription = combined.observe(recorder.handler)
        states[1].value = 20
        #expect(combined.value == [1, 20, 3])
        #expect(recorder.values == [[1, 2, 3], [1, 20, 3]])
        _ = subscription
    }

    @Test("an empty array of states is a constant empty array")
    func emptyArray() {
        let combined = State<Int>.combineLatest([])
        #expect(combined.value == [])
    }
}
