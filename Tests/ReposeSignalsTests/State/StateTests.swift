import Testing

@testable import ReposeSignals

@Suite("State")
struct StateTests {
    let count = MutableState(1)
    let recorder = RecordingObserver<Int>()

    @Test("S6 observing a state replays its current value at once, then every change")
    func replayThenChanges() {
        count.value = 5
        let subscription = count.state.observe(recorder.handler)
        #expect(recorder.values == [5])
        count.value = 6
        count.value = 7
        #expect(recorder.values == [5, 6, 7])
        _ = subscription
    }

    @Test("S6 every new observer gets its own replay of the current value")
    func replayPerObserver() {
        let other = RecordingObserver<Int>()
        let first = count.state.observe(recorder.handler)
        count.value = 2
        let second = count.state.observe(other.handler)
        #expect(recorder.values == [1, 2])
        #expect(other.values == [2])
        _ = (first, second)
    }

    @Test("S6 the owner form replays too")
    func ownerFormReplays() {
        let owner = StubOwner()
        count.state.observe(owner: owner, recorder.handler)
        count.value = 2
        #expect(recorder.values == [1, 2])
    }

    @Test("S6 the state's signal carries changes only, without the replay")
    func signalHasNoReplay() {
        let subscription = count.state.signal.observe(recorder.handler)
        count.value = 3
        #expect(recorder.values == [3])
        _ = subscription
    }

    @Test("S7 assigning an equal value notifies, but not through removeDuplicates")
    func equalAssignment() {
        let all = RecordingObserver<Int>()
        let plain = count.state.observe(all.handler)
        let distinct = count.state.removeDuplicates().observe(recorder.handler)
        count.value = 1
        count.value = 2
        count.value = 2
        #expect(all.values == [1, 1, 2, 2])
        #expect(recorder.values == [1, 2])
        _ = (plain, distinct)
    }

    @Test("S7 removeDuplicates on a state compares the first change with the value current at subscription")
    func removeDuplicatesSeedsWithCurrentValue() {
        count.value = 4
        let subscription = count.state.removeDuplicates().observe(recorder.handler)
        count.value = 4
        count.value = 5
        #expect(recorder.values == [4, 5])
        _ = subscription
    }

    @Test("removeDuplicates(by:) on a state uses the given equivalence")
    func removeDuplicatesBy() {
        let subscription = count.state.removeDuplicates { $0 / 10 == $1 / 10 }.observe(recorder.handler)
        count.value = 5
        count.value = 12
        count.value = 19
        #expect(recorder.values == [1, 12])
        _ = subscription
    }

    @Test("a value set from inside an observer is stored at once and delivered after the current delivery")
    func reentrantAssignment() {
        let log = RecordingLog()
        let first = count.state.signal.observe { value in
            log.append("first \(value) now \(self.count.value)")
            if value == 2 { self.count.value = 3 }
        }
        let second = count.state.signal.observe { log.append("second \($0)") }
        count.value = 2
        #expect(log.events == ["first 2 now 2", "second 2", "first 3 now 3", "second 3"])
        _ = (first, second)
    }

    @Test("map on a state derives its value and its changes")
    func mapState() {
        let text = count.state.map { "#\($0)" }
        let recorder = RecordingObserver<String>()
        let subscription = text.observe(recorder.handler)
        count.value = 2
        #expect(text.value == "#2")
        #expect(recorder.values == ["#1", "#2"])
        _ = subscription
    }

    @Test("S1 releasing a mutable state releases its observers' closures")
    func mutableStateReleaseFreesObservers() {
        var state: MutableState<Int>? = MutableState(0)
        var probe: LifetimeProbe? = LifetimeProbe()
        let weakProbe = WeakReference(probe)
        let weakState = WeakReference(state)
        let owner = StubOwner()
        state?.state.observe(owner: owner) { [probe] _ in probe?.touch() }
        probe = nil
        state = nil
        #expect(weakState.object == nil)
        #expect(weakProbe.object == nil)
    }
}
