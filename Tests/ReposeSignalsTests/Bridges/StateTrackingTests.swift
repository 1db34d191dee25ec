import Observation
import Testing

@testable import ReposeSignals

@Observable
final class TrackedCounter {
    var count = 0
    var label = "a"
}

@Suite("State(tracking:)")
@MainActor
struct StateTrackingTests {
    let counter = TrackedCounter()
    let evaluations = SharedCounter()

    func tracked() -> State<Int> {
        State(tracking: { [counter, evaluations] in
            evaluations.increment()
            return counter.count
        })
    }

    @Test("S21 an Observation-tracked expression becomes a State that delivers its new value after a change")
    func deliversChanges() async {
        let state = tracked()
        let recorder = RecordingObserver<Int>()
        let subscription = state.observe(recorder.handler)
        counter.count = 1
        guard await waitUntil({ recorder.values.count == 2 }) else { return }
        counter.count = 2
        guard await waitUntil({ recorder.values.count == 3 }) else { return }
        #expect(recorder.values == [0, 1, 2])
        #expect(state.value == 2)
        _ = subscription
    }

    @Test("S21 several changes made before the re-evaluation arrive as one value")
    func coalesces() async {
        let state = tracked()
        let recorder = RecordingObserver<Int>()
        let subscription = state.observe(recorder.handler)
        counter.count = 1
        counter.count = 2
        guard await waitUntil({ recorder.values.count == 2 }) else { return }
        #expect(recorder.values == [0, 2])
        _ = subscription
    }

    @Test("S21 nothing is tracked while the state is unobserved; its value reads the expression")
    func lazy() {
        let state = tracked()
        counter.count = 5
        #expect(evaluations.count == 0)
        #expect(state.value == 5)
        #expect(evaluations.count == 1)
    }

    @Test("S21 a property the expression did not read changes nothing")
    func onlyWhatWasRead() async {
        let state = tracked()
        let recorder = RecordingObserver<Int>()
        let other = State(tracking: { [counter] in counter.label })
        let labels = RecordingObserver<String>()
        let subscription = state.observe(recorder.handler)
        let second = other.observe(labels.handler)
        counter.label = "b"
        guard await waitUntil({ labels.values.count == 2 }) else { return }
        #expect(recorder.values == [0])
        withExtendedLifetime((subscription, second)) {}
    }

    @Test("S1 S21 an owner-scoped observer needs nothing else kept; once the owner is gone, the next change ends it")
    func ownerScoped() async {
        var model: TrackedCounter? = TrackedCounter()
        let weakModel = WeakReference(model)
        var owner: StubOwner? = StubOwner()
        var probe: LifetimeProbe? = LifetimeProbe()
        let weakProbe = WeakReference(probe)
        let recorder = RecordingObserver<Int>()
        model.map { model in State(tracking: { model.count }) }?
            .observe(owner: owner ?? StubOwner()) { [probe, recorder] _, value in
                probe?.touch()
                recorder.record(value)
            }
        probe = nil
        model?.count = 1
        guard await waitUntil({ recorder.values == [0, 1] }) else { return }
        owner = nil
        model?.count = 2
        guard await waitUntil({ weakProbe.object == nil }) else { return }
        #expect(recorder.values == [0, 1])
        model = nil
        #expect(weakModel.object == nil)
    }

    @Test("S21 once the last observer has left, a change evaluates nothing; a new observer tracks afresh")
    func restarts() async {
        let state = tracked()
        let recorder = RecordingObserver<Int>()
        var subscription = state.observe(recorder.handler)
        subscription.cancel()
        let afterFirst = evaluations.count
        counter.count = 1
        subscription = state.observe(recorder.handler)
        counter.count = 2
        guard await waitUntil({ recorder.values.last == 2 }) else { return }
        // The first connection's evaluation and replay, then the second's, then the change: never the stale report.
        #expect(evaluations.count == afterFirst + 3)
        _ = subscription
    }
}
