import Testing

@testable import ReposeSignals

@Suite("throttle")
struct ThrottleTests {
    let scheduler = TestScheduler()
    let source = SignalSource<Int>()
    let recorder = RecordingObserver<Int>()

    func throttled(latest: Bool) -> Signal<Int> {
        source.signal.throttle(for: .seconds(1), scheduler: scheduler, latest: latest)
    }

    @Test("S11 the first value passes at once and opens an interval")
    func basic() {
        let subscription = throttled(latest: true).observe(recorder.handler)
        source.send(1)
        #expect(recorder.values == [1])
        scheduler.advance(by: .seconds(5))
        source.send(2)
        #expect(recorder.values == [1, 2])
        _ = subscription
    }

    @Test(
        "S11 a burst delivers at most one value per interval; latest picks the last or the first",
        arguments: [(true, [0, 2, 4, 7, 9]), (false, [0, 1, 3, 5, 8])])
    func burst(latest: Bool, expected: [Int]) {
        // Value i arrives at 0.4 s × i; windows close at 1, 2, 3, 4 s, so five deliveries in 4 s.
        let subscription = throttled(latest: latest).observe(recorder.handler)
        for value in 0..<10 {
            source.send(value)
            scheduler.advance(by: .milliseconds(400))
        }
        scheduler.run()
        #expect(recorder.values == expected)
        _ = subscription
    }

    @Test("S11 a value held back is dropped when the subscription ends")
    func endWhilePending() {
        let subscription = throttled(latest: true).observe(recorder.handler)
        source.send(1)
        source.send(2)
        subscription.cancel()
        #expect(scheduler.pendingCount == 0)
        scheduler.run()
        #expect(recorder.values == [1])
    }

    @Test("S1 S11 nothing is delivered once the owner is gone, and the chain is released")
    func ownerGoesAway() {
        var owner: StubOwner? = StubOwner()
        var probe: LifetimeProbe? = LifetimeProbe()
        let weakProbe = WeakReference(probe)
        throttled(latest: true).observe(owner: owner ?? StubOwner()) { [probe, recorder] value in
            probe?.touch()
            recorder.record(value)
        }
        probe = nil
        source.send(1)
        source.send(2)
        owner = nil
        scheduler.run()
        #expect(recorder.values == [1])
        #expect(weakProbe.object == nil)
        #expect(source.signal.observerCount == 0)
    }
}
