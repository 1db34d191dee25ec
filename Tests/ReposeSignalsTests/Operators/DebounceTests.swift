import Testing

@testable import ReposeSignals

@Suite("debounce")
struct DebounceTests {
    let scheduler = TestScheduler()
    let source = SignalSource<String>()
    let recorder = RecordingObserver<String>()

    var debounced: Signal<String> { source.signal.debounce(for: .milliseconds(300), scheduler: scheduler) }

    @Test("S10 S13 debounce delivers a value once the interval passes with nothing newer")
    func basic() {
        let subscription = debounced.observe(recorder.handler)
        source.send("a")
        scheduler.advance(by: .milliseconds(299))
        #expect(recorder.values.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        #expect(recorder.values == ["a"])
        _ = subscription
    }

    @Test("S10 a burst delivers only its last value, one interval after the last input")
    func burst() {
        let subscription = debounced.observe(recorder.handler)
        for text in ["s", "sw", "swi"] {
            source.send(text)
            scheduler.advance(by: .milliseconds(100))
        }
        source.send("swift")
        scheduler.advance(by: .milliseconds(299))
        #expect(recorder.values.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        #expect(recorder.values == ["swift"])
        #expect(scheduler.now == .milliseconds(600))
        _ = subscription
    }

    @Test("S10 separate pauses deliver separate values")
    func separatePauses() {
        let subscription = debounced.observe(recorder.handler)
        source.send("a")
        scheduler.advance(by: .seconds(1))
        source.send("b")
        scheduler.advance(by: .seconds(1))
        #expect(recorder.values == ["a", "b"])
        _ = subscription
    }

    @Test("S10 a pending value is dropped when the subscription ends")
    func endWhilePending() {
        let subscription = debounced.observe(recorder.handler)
        source.send("a")
        subscription.cancel()
        #expect(scheduler.pendingCount == 0)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.values.isEmpty)
    }

    @Test("S1 S10 nothing is delivered once the owner is gone, and the chain is released")
    func ownerGoesAway() {
        var owner: StubOwner? = StubOwner()
        var probe: LifetimeProbe? = LifetimeProbe()
        let weakProbe = WeakReference(probe)
        debounced.observe(owner: owner ?? StubOwner()) { [probe, recorder] value in
            probe?.touch()
            recorder.record(value)
        }
        probe = nil
        source.send("a")
        owner = nil
        scheduler.advance(by: .seconds(1))
        #expect(recorder.values.isEmpty)
        #expect(weakProbe.object == nil)
        #expect(source.signal.observerCount == 0)
    }

    @Test("debounce with the immediate scheduler lets every value through")
    func immediate() {
        let subscription = source.signal.debounce(for: .seconds(1), scheduler: ImmediateScheduler())
            .observe(recorder.handler)
        source.send("a")
        source.send("b")
        #expect(recorder.values == ["a", "b"])
        _ = subscription
    }
}
