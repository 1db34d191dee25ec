import Testing

@testable import ReposeSignals

@Suite("hold(initial:)")
struct HoldTests {
    let source = SignalSource<String>()

    @Test("a held state starts at its initial value and tracks the signal")
    func tracksSignal() {
        let held = source.signal.hold(initial: "none")
        #expect(held.value == "none")
        source.send("a")
        #expect(held.value == "a")
    }

    @Test("S6 a held state replays the latest value to new observers")
    func replaysLatest() {
        let held = source.signal.hold(initial: "none")
        source.send("a")
        let recorder = RecordingObserver<String>()
        let subscription = held.observe(recorder.handler)
        source.send("b")
        #expect(recorder.values == ["a", "b"])
        _ = subscription
    }

    @Test("S8 a held state unsubscribes from its signal when it is released")
    func releaseUnsubscribes() {
        var held: State<String>? = source.signal.hold(initial: "")
        let weakHeld = WeakReference(held)
        #expect(source.signal.observerCount == 1)
        held = nil
        #expect(weakHeld.object == nil)
        #expect(source.signal.observerCount == 0)
    }

    @Test("S8 a held state does not keep the signal source alive")
    func doesNotRetainSource() {
        var source: SignalSource<String>? = SignalSource()
        let weakSource = WeakReference(source)
        let held = source?.signal.hold(initial: "x")
        source = nil
        #expect(weakSource.object == nil)
        #expect(held?.value == "x")
    }
}
