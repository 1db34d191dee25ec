import Testing

@testable import ReposeSignals

@Suite("Subscription lifetimes")
struct SubscriptionLifetimeTests {
    let source = SignalSource<Int>()
    let recorder = RecordingObserver<Int>()

    @Test("S2 cancel ends the subscription and cancelling twice is harmless")
    func cancelEnds() {
        let subscription = source.signal.observe(recorder.handler)
        source.send(1)
        subscription.cancel()
        subscription.cancel()
        source.send(2)
        #expect(recorder.values == [1])
        #expect(subscription.isCancelled)
        #expect(source.signal.observerCount == 0)
    }

    @Test("S2 a cancelled subscription releases its closure at once")
    func cancelReleasesClosure() {
        var probe: LifetimeProbe? = LifetimeProbe()
        let weakProbe = WeakReference(probe)
        let subscription = source.signal.observe { [probe] _ in probe?.touch() }
        probe = nil
        #expect(weakProbe.object != nil)
        subscription.cancel()
        #expect(weakProbe.object == nil)
    }

    @Test("S2 releasing a subscription ends it and releases its closure")
    func releaseEnds() {
        var probe: LifetimeProbe? = LifetimeProbe()
        let weakProbe = WeakReference(probe)
        var subscription: Subscription? = source.signal.observe { [probe, recorder] value in
            probe?.touch()
            recorder.record(value)
        }
        probe = nil
        source.send(1)
        subscription = nil
        source.send(2)
        #expect(recorder.values == [1])
        #expect(weakProbe.object == nil)
        _ = subscription
    }

    @Test("S2 cancelling from inside the observer's own closure stops further values")
    func cancelFromInside() {
        var subscription: Subscription?
        subscription = source.signal.observe { value in
            self.recorder.record(value)
            subscription?.cancel()
        }
        source.send(1)
        source.send(2)
        #expect(recorder.values == [1])
    }

    @Test("S1 the owner form holds its owner weakly")
    func ownerHeldWeakly() {
        var owner: StubOwner? = StubOwner()
        let weakOwner = WeakReference(owner)
        source.signal.observe(owner: owner ?? StubOwner()) { _ in }
        owner = nil
        #expect(weakOwner.object == nil)
    }

    @Test("S1 the owner form observes while the owner lives, even if the subscription is discarded")
    func ownerFormKeepsObserving() {
        let owner = StubOwner()
        source.signal.observe(owner: owner, recorder.handler)
        source.send(1)
        source.send(2)
        #expect(recorder.values == [1, 2])
    }

    @Test("S1 once the owner is gone the closure is never called again and is released")
    func ownerGoneReleasesClosure() {
        var owner: StubOwner? = StubOwner()
        var probe: LifetimeProbe? = LifetimeProbe()
        let weakProbe = WeakReference(probe)
        source.signal.observe(owner: owner ?? StubOwner()) { [probe, recorder] value in
            probe?.touch()
            recorder.record(value)
        }
        probe = nil
        source.send(1)
        owner = nil
        source.send(2)
        #expect(recorder.values == [1])
        #expect(weakProbe.object == nil)
        #expect(source.signal.observerCount == 0)
    }

    @Test("S1 the owner form can still be cancelled early")
    func ownerFormCancel() {
        let owner = StubOwner()
        let subscription = source.signal.observe(owner: owner, recorder.handler)
        source.send(1)
        subscription.cancel()
        source.send(2)
        #expect(recorder.values == [1])
    }

    @Test("S1 releasing a signal source releases every observer's closure")
    func sourceReleaseFreesObservers() {
        var source: SignalSource<Int>? = SignalSource()
        var probe: LifetimeProbe? = LifetimeProbe()
        let weakProbe = WeakReference(probe)
        let weakSource = WeakReference(source)
        let owner = StubOwner()
        source?.signal.observe(owner: owner) { [probe] _ in probe?.touch() }
        probe = nil
        source = nil
        #expect(weakSource.object == nil)
        #expect(weakProbe.object == nil)
    }

    @Test("S2 cancelling a closure that holds the last reference to another subscription of the same signal")
    func closureOwningSubscription() {
        var inner: Subscription? = source.signal.observe(recorder.handler)
        let outer = source.signal.observe { [inner] _ in _ = inner }
        inner = nil
        source.send(1)
        outer.cancel()
        source.send(2)
        #expect(recorder.values == [1])
        #expect(source.signal.observerCount == 0)
        _ = inner
    }

    @Test("S1 releasing a source whose observers hold subscriptions to it")
    func sourceReleaseWithNestedSubscriptions() {
        var source: SignalSource<Int>? = SignalSource()
        let weakSource = WeakReference(source)
        let inner = source?.signal.observe { _ in }
        let owner = StubOwner()
        source?.signal.observe(owner: owner) { [inner] _ in _ = inner }
        source = nil
        #expect(weakSource.object == nil)
    }
}
