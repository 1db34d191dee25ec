import Testing

@testable import ReposeSignals

/// What happens to observers' closures when observers end while a value is being delivered.
///
/// A `RecordingProbe` captured by a closure logs when the closure is released, so each test checks in one log both
/// that a running closure outlives its own call and that every other closure is released at once.
@Suite("Lifetimes during a delivery")
struct DeliveryLifetimeTests {
    let source = SignalSource<Int>()
    let log = RecordingLog()

    @Test("S2 a handler that cancels its own subscription keeps its captured state until it returns, then is freed")
    func cancelOwnSubscription() {
        let log = log
        var subscription: Subscription?
        subscription = source.signal.observe { [probe = RecordingProbe("own", log: log)] value in
            subscription?.cancel()
            probe.note("after cancel \(value)")
        }
        let next = source.signal.observe { log.append("next \($0)") }
        source.send(1)
        source.send(2)
        #expect(log.events == ["own after cancel 1", "own freed", "next 1", "next 2"])
        #expect(subscription?.isCancelled == true)
        withExtendedLifetime(next) {}
    }

    @Test("S2 a handler that releases the last reference to its own subscription keeps running until it returns")
    func releaseOwnSubscription() {
        let log = log
        var subscription: Subscription?
        subscription = source.signal.observe { [probe = RecordingProbe("own", log: log)] value in
            subscription = nil
            probe.note("after release \(value)")
        }
        let next = source.signal.observe { log.append("next \($0)") }
        source.send(1)
        source.send(2)
        #expect(log.events == ["own after release 1", "own freed", "next 1", "next 2"])
        #expect(subscription == nil)
        withExtendedLifetime(next) {}
    }

    @Test("S2 S5 cancelling the next observer releases its closure before the delivery ends")
    func cancelNextObserver() {
        let log = log
        var probe: LifetimeProbe? = LifetimeProbe()
        let weakProbe = WeakReference(probe)
        var second: Subscription?
        let first = source.signal.observe { value in
            second?.cancel()
            log.append("first \(value), next freed: \(weakProbe.object == nil)")
        }
        second = source.signal.observe { [probe] value in
            probe?.touch()
            log.append("second \(value)")
        }
        probe = nil
        source.send(1)
        #expect(log.events == ["first 1, next freed: true"])
        withExtendedLifetime(first) {}
    }

    @Test("S2 cancelling the previous observer releases its closure at once")
    func cancelPreviousObserver() {
        let log = log
        var probe: LifetimeProbe? = LifetimeProbe()
        let weakProbe = WeakReference(probe)
        var first: Subscription?
        first = source.signal.observe { [probe] value in
            probe?.touch()
            log.append("first \(value)")
        }
        probe = nil
        let second = source.signal.observe { value in
            first?.cancel()
            log.append("second \(value), previous freed: \(weakProbe.object == nil)")
        }
        source.send(1)
        source.send(2)
        #expect(log.events == ["first 1", "second 1, previous freed: true", "second 2, previous freed: true"])
        withExtendedLifetime(second) {}
    }

    @Test("S1 a signal ended during a delivery frees the other closures at once and the running one when it returns")
    func terminateDuringDelivery() {
        let log = log
        let signal = source.signal
        let first = signal.observe { [probe = RecordingProbe("first", log: log)] value in probe.note("\(value)") }
        // What releasing the source does; a caller always holds the source it sends through, so call it directly.
        let second = signal.observe { [probe = RecordingProbe("second", log: log), signal] value in
            signal.terminate()
            probe.note("after end \(value)")
        }
        let third = signal.observe { [probe = RecordingProbe("third", log: log)] value in probe.note("\(value)") }
        source.send(1)
        source.send(2)
        #expect(log.events == ["first 1", "first freed", "third freed", "second after end 1", "second freed"])
        #expect(signal.observerCount == 0)
        withExtendedLifetime((first, second, third)) {}
    }

    @Test("S1 a source released from inside a delivery finishes that delivery, then frees every closure")
    func sourceReleasedDuringDelivery() {
        let log = log
        var source: SignalSource<Int>? = SignalSource()
        let weakSource = WeakReference(source)
        let owner = StubOwner()
        source?.signal.observe(owner: owner) { [probe = RecordingProbe("first", log: log)] value in
            source = nil
            probe.note("\(value)")
        }
        source?.signal.observe(owner: owner) { [probe = RecordingProbe("second", log: log)] value in
            probe.note("\(value)")
        }
        source?.send(1)
        #expect(log.events == ["first 1", "second 1", "first freed", "second freed"])
        #expect(weakSource.object == nil)
    }

    @Test("S1 S2 an owner-form observer found dead during a delivery is freed before the next observer runs")
    func deadOwnerFreedDuringDelivery() {
        let log = log
        var owner: StubOwner? = StubOwner()
        source.signal.observe(owner: owner ?? StubOwner()) { [probe = RecordingProbe("owned", log: log)] value in
            probe.note("\(value)")
        }
        let next = source.signal.observe { log.append("next \($0)") }
        withExtendedLifetime(owner) { source.send(1) }
        owner = nil
        source.send(2)
        #expect(log.events == ["owned 1", "next 1", "owned freed", "next 2"])
        withExtendedLifetime(next) {}
    }

    @Test("S2 an operator link removed while it runs stays alive until it returns")
    func linkRemovedWhileRunning() {
        let log = log
        var unlink: Teardown?
        unlink = source.signal.link(into: nil) { [probe = RecordingProbe("link", log: log)] value, _ in
            unlink?()
            probe.note("after unlink \(value)")
        }
        let next = source.signal.observe { log.append("next \($0)") }
        source.send(1)
        source.send(2)
        #expect(log.events == ["link after unlink 1", "link freed", "next 1", "next 2"])
        #expect(source.signal.observerCount == 1)
        withExtendedLifetime(next) {}
    }

    @Test("S2 S8 a chain whose last observer cancels during a delivery disconnects and is freed")
    func chainCancelledDuringDelivery() {
        let log = log
        var derived: Signal<Int>? = source.signal.map { $0 * 10 }
        let weakDerived = WeakReference(derived)
        var subscription: Subscription?
        subscription = derived?.observe { value in
            log.append("mapped \(value)")
            subscription?.cancel()
        }
        derived = nil
        let next = source.signal.observe { log.append("next \($0)") }
        source.send(1)
        source.send(2)
        #expect(log.events == ["mapped 10", "next 1", "next 2"])
        #expect(weakDerived.object == nil)
        #expect(source.signal.observerCount == 1)
        withExtendedLifetime(next) {}
    }

    @Test("S2 a running closure whose release cancels a later observer: that observer receives nothing")
    func releaseCancelsLaterObserver() {
        let log = log
        var holder: SubscriptionHolder? = SubscriptionHolder()
        var own: Subscription?
        own = source.signal.observe { [holder] value in
            own?.cancel()
            log.append("own \(value), holding \(holder?.subscription == nil ? "nothing" : "later")")
        }
        let middle = source.signal.observe { log.append("middle \($0)") }
        holder?.subscription = source.signal.observe { log.append("later \($0)") }
        holder = nil
        source.send(1)
        source.send(2)
        #expect(log.events == ["own 1, holding later", "middle 1", "middle 2"])
        #expect(source.signal.observerCount == 1)
        withExtendedLifetime(middle) {}
    }

    @Test("S5 observers added during a delivery, enough to move the observer list, start with the next value")
    func manyObserversAddedDuringDelivery() {
        let log = log
        let signal = source.signal
        let recorder = RecordingObserver<Int>()
        var added: [Subscription] = []
        let first = signal.observe { [probe = RecordingProbe("first", log: log)] value in
            if added.isEmpty {
                for _ in 0..<100 { added.append(signal.observe(recorder.handler)) }
            }
            probe.note("\(value)")
        }
        let second = signal.observe { log.append("second \($0)") }
        source.send(1)
        source.send(2)
        #expect(log.events == ["first 1", "second 1", "first 2", "second 2"])
        #expect(recorder.values == Array(repeating: 2, count: 100))
        withExtendedLifetime((first, second, added)) {}
    }
}

/// Holds a subscription so that releasing the holder releases the subscription.
private final class SubscriptionHolder {
    var subscription: Subscription?
}
