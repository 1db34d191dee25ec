import Testing

@testable import ReposeSignals

@Suite("delay")
struct DelayTests {
    let scheduler = TestScheduler()
    let source = SignalSource<Int>()
    let recorder = RecordingObserver<Int>()

    var delayed: Signal<Int> { source.signal.delay(for: .seconds(2), scheduler: scheduler) }

    @Test("S13 delay delivers each value after the interval")
    func basic() {
        let subscription = delayed.observe(recorder.handler)
        source.send(1)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.values.isEmpty)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.values == [1])
        _ = subscription
    }

    @Test("S13 a burst is delivered whole and in order, each value shifted by the interval")
    func burst() {
        let subscription = delayed.observe(recorder.handler)
        source.send(1)
        source.send(2)
        scheduler.advance(by: .seconds(1))
        source.send(3)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.values == [1, 2])
        scheduler.advance(by: .seconds(1))
        #expect(recorder.values == [1, 2, 3])
        _ = subscription
    }

    @Test("S13 values still waiting are dropped when the subscription ends")
    func endWhilePending() {
        let subscription = delayed.observe(recorder.handler)
        source.send(1)
        subscription.cancel()
        #expect(scheduler.pendingCount == 0)
        scheduler.run()
        #expect(recorder.values.isEmpty)
    }

    @Test("S1 S13 nothing is delivered once the owner is gone, and the chain is released")
    func ownerGoesAway() {
        var owner: StubOwner? = StubOwner()
        var probe: LifetimeProbe? = LifetimeProbe()
        let weakProbe = WeakReference(probe)
        delayed.observe(owner: owner ?? StubOwner()) { [probe, recorder] value in
            probe?.touch()
            recorder.record(value)
        }
        probe = nil
        source.send(1)
        owner = nil
        scheduler.run()
        #expect(recorder.values.isEmpty)
        #expect(weakProbe.object == nil)
        #expect(source.signal.observerCount == 0)
    }
}
