import Observation
import Testing

@testable import ReposeSignals

@Suite("ObservableState and ObservableMutableState")
@MainActor
struct ObservableStateTests {
    let count = MutableState(1)

    /// Whether reading `read` under observation tracking is told about the next change.
    func tracksChange(of read: () -> Void, when change: () -> Void) -> Bool {
        let changes = SharedCounter()
        withObservationTracking(read) { changes.increment() }
        change()
        return changes.count == 1
    }

    @Test("S22 an ObservableState's value follows its state, and withObservationTracking hears each change")
    func follows() {
        let bridge = ObservableState(count.state.map { $0 * 10 })
        #expect(bridge.value == 10)
        #expect(tracksChange(of: { _ = bridge.value }, when: { count.value = 2 }))
        #expect(bridge.value == 20)
    }

    @Test("S22 the bridge is freed, and its observation ends, when its holder lets go")
    func freed() {
        var bridge: ObservableState<Int>? = ObservableState(count.state.map { $0 * 10 })
        let weakBridge = WeakReference(bridge)
        #expect(count.state.signal.observerCount == 1)
        bridge = nil
        #expect(weakBridge.object == nil)
        #expect(count.state.signal.observerCount == 0)
    }

    @Test("S22 a MutableState's bridge reads and writes: a write notifies the state's other observers at once")
    func twoWay() {
        let bridge = ObservableMutableState(count)
        let recorder = RecordingObserver<Int>()
        let subscription = count.state.observe(recorder.handler)
        #expect(tracksChange(of: { _ = bridge.value }, when: { bridge.value = 5 }))
        #expect(count.value == 5)
        #expect(bridge.value == 5)
        #expect(tracksChange(of: { _ = bridge.value }, when: { count.value = 6 }))
        #expect(bridge.value == 6)
        #expect(recorder.values == [1, 5, 6])
        _ = subscription
    }

    @Test("S22 a MutableState's bridge is freed with its observation when its holder lets go")
    func mutableFreed() {
        var bridge: ObservableMutableState<Int>? = ObservableMutableState(count)
        let weakBridge = WeakReference(bridge)
        #expect(count.state.signal.observerCount == 1)
        bridge = nil
        #expect(weakBridge.object == nil)
        #expect(count.state.signal.observerCount == 0)
    }
}
