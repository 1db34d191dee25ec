import Testing

@testable import ReposeSignals

@Suite("prefix, first, prefix(while:), prefix(untilOutputFrom:)")
struct PrefixTests {
    let source = SignalSource<Int>()
    let recorder = RecordingObserver<Int>()

    @Test("S17 prefix(n) delivers the first n values, then ends its observers by itself and releases their closures")
    func prefixEnds() {
        var probe: LifetimeProbe? = LifetimeProbe()
        let weakProbe = WeakReference(probe)
        let prefix = source.signal.prefix(2)
        let subscription = prefix.observe { [probe, recorder] value in
            probe?.touch()
            recorder.record(value)
        }
        probe = nil
        for value in 1...4 { source.send(value) }
        #expect(recorder.values == [1, 2])
        #expect(weakProbe.object == nil)
        #expect(prefix.observerCount == 0)
        #expect(source.signal.observerCount == 0)
        _ = subscription
    }

    @Test("S2 S17 a closure released as a prefix finishes may cancel another observer of it")
    func finishReleasingAnotherSubscription() {
        final class Holder {
            var subscription: Subscription?
        }
        let prefix = source.signal.prefix(1)
        var holder: Holder? = Holder()
        // The first observer's closure alone holds the second's subscription: releasing it cancels the second.
        let first = prefix.observe { [holder] _ in _ = holder }
        holder?.subscription = prefix.observe(recorder.handler)
        holder = nil
        source.send(1)
        #expect(recorder.values == [1])
        #expect(prefix.observerCount == 0)
        #expect(source.signal.observerCount == 0)
        _ = first
    }

    @Test("S1 S17 an owner-scoped observer of a finished prefix is released at once, and the owner is free to go")
    func ownerFormEnds() {
        var owner: StubOwner? = StubOwner()
        let weakOwner = WeakReference(owner)
        var probe: LifetimeProbe? = LifetimeProbe()
        let weakProbe = WeakReference(probe)
        source.signal.first().observe(owner: owner ?? StubOwner()) { [probe, recorder] _, value in
            probe?.touch()
            recorder.record(value)
        }
        probe = nil
        source.send(7)
        #expect(weakProbe.object == nil)
        owner = nil
        #expect(weakOwner.object == nil)
        source.send(8)
        #expect(recorder.values == [7])
    }

    @Test("S17 first() delivers one value; first(where:) the first value that matches")
    func firstForms() {
        let any = RecordingObserver<Int>()
        let even = RecordingObserver<Int>()
        let a = source.signal.first().observe(any.handler)
        let b = source.signal.first { $0.isMultiple(of: 2) }.observe(even.handler)
        for value in 1...5 { source.send(value) }
        #expect(any.values == [1])
        #expect(even.values == [2])
        #expect(source.signal.observerCount == 0)
        withExtendedLifetime((a, b)) {}
    }

    @Test("S17 prefix(while:) ends at the first value that fails, without delivering it")
    func prefixWhile() {
        let subscription = source.signal.prefix { $0 < 3 }.observe(recorder.handler)
        for value in [1, 2, 3, 1] { source.send(value) }
        #expect(recorder.values == [1, 2])
        #expect(source.signal.observerCount == 0)
        _ = subscription
    }

    @Test("S17 prefix(untilOutputFrom:) delivers until the other signal delivers, then ends")
    func untilOutput() {
        let stop = SignalSource<Void>()
        var probe: LifetimeProbe? = LifetimeProbe()
        let weakProbe = WeakReference(probe)
        let subscription = source.signal.prefix(untilOutputFrom: stop.signal).observe { [probe, recorder] value in
            probe?.touch()
            recorder.record(value)
        }
        probe = nil
        source.send(1)
        source.send(2)
        stop.send(())
        source.send(3)
        #expect(recorder.values == [1, 2])
        #expect(weakProbe.object == nil)
        #expect(source.signal.observerCount == 0)
        #expect(stop.signal.observerCount == 0)
        _ = subscription
    }

    @Test("S17 prefix(untilOutputFrom:) goes on if the other signal finishes without a value")
    func untilOutputOtherFinishes() {
        let stop = SignalSource<Int>()
        // Finishes at stop's first value, which it never lets through.
        let notifier = stop.signal.prefix(1).filter { _ in false }
        let subscription = source.signal.prefix(untilOutputFrom: notifier).observe(recorder.handler)
        source.send(1)
        stop.send(0)
        #expect(stop.signal.observerCount == 0)
        source.send(2)
        #expect(recorder.values == [1, 2])
        #expect(source.signal.observerCount == 1)
        _ = subscription
    }

    @Test("S17 a notifier that delivers as it connects ends the prefix before anything passes")
    func untilOutputReplaysAtConnect() {
        let stop = MutableState(true)
        var probe: LifetimeProbe? = LifetimeProbe()
        let weakProbe = WeakReference(probe)
        let notifier = stop.state.signal.prepend(true)
        let subscription = source.signal.prepend(0).prefix(untilOutputFrom: notifier).observe { [probe, recorder] in
            probe?.touch()
            recorder.record($0)
        }
        probe = nil
        source.send(1)
        #expect(recorder.values.isEmpty)
        #expect(weakProbe.object == nil)
        #expect(source.signal.observerCount == 0)
        _ = subscription
    }

    @Test("S17 prefix(0) ends every observer as it subscribes, without subscribing to the source")
    func prefixZero() {
        var probe: LifetimeProbe? = LifetimeProbe()
        let weakProbe = WeakReference(probe)
        let subscription = source.signal.prefix(0).observe { [probe] _ in probe?.touch() }
        probe = nil
        #expect(weakProbe.object == nil)
        #expect(source.signal.observerCount == 0)
        source.send(1)
        _ = subscription
    }

    @Test("S17 prefix(n) counts the values of one delivery: the n-th finishes it and later ones are ignored")
    func countsWithinOneDelivery() {
        let signal = source.signal.merge(with: source.signal.map { $0 * 10 }, source.signal.map { $0 * 100 })
        let subscription = signal.prefix(2).observe(recorder.handler)
        source.send(1)
        source.send(2)
        #expect(recorder.values == [1, 10])
        #expect(source.signal.observerCount == 0)
        _ = subscription
    }

    @Test("S17 a length below zero ends every observer as it subscribes, as zero does")
    func prefixNegative() {
        var probe: LifetimeProbe? = LifetimeProbe()
        let weakProbe = WeakReference(probe)
        let subscription = source.signal.prefix(-3).observe { [probe] _ in probe?.touch() }
        probe = nil
        #expect(weakProbe.object == nil)
        #expect(source.signal.observerCount == 0)
        _ = subscription
    }

    @Test("S17 after the first value that fails prefix(while:), a passing value of the same delivery is ignored")
    func predicateFailureIsFinal() {
        let signal = source.signal.merge(with: source.signal.map { $0 * 10 }, source.signal.map { $0 + 1 })
        let subscription = signal.prefix { $0 < 5 }.observe(recorder.handler)
        source.send(1)
        source.send(2)
        #expect(recorder.values == [1])
        #expect(source.signal.observerCount == 0)
        _ = subscription
    }

    @Test("S17 observers sharing a prefix share its count; one that subscribes after it finished gets a fresh count")
    func countPerConnection() {
        let prefix = source.signal.prefix(2)
        let early = RecordingObserver<Int>()
        let late = RecordingObserver<Int>()
        let next = RecordingObserver<Int>()
        let a = prefix.observe(early.handler)
        source.send(1)
        let b = prefix.observe(late.handler)
        source.send(2)
        source.send(3)
        let c = prefix.observe(next.handler)
        source.send(4)
        source.send(5)
        source.send(6)
        #expect(early.values == [1, 2])
        #expect(late.values == [2])
        #expect(next.values == [4, 5])
        withExtendedLifetime((a, b, c)) {}
    }

    @Test("S4 S17 values sent from inside an observer count toward the prefix, in order, for every observer")
    func reentrantSends() {
        let other = RecordingObserver<Int>()
        let prefix = source.signal.prefix(3)
        let a = prefix.observe { [source, recorder] value in
            recorder.record(value)
            if value == 1 {
                source.send(2)
                source.send(3)
                source.send(4)
            }
        }
        let b = prefix.observe(other.handler)
        source.send(1)
        #expect(recorder.values == [1, 2, 3])
        #expect(other.values == [1, 2, 3])
        withExtendedLifetime((a, b)) {}
    }

    @Test("S4 S17 a value the prefix accepted during its own delivery reaches every observer before it ends")
    func acceptedDuringOwnDelivery() {
        let second = SignalSource<Int>()
        let other = RecordingObserver<Int>()
        var probe: LifetimeProbe? = LifetimeProbe()
        let weakProbe = WeakReference(probe)
        let prefix = source.signal.merge(with: second.signal).prefix(2)
        let a = prefix.observe { [second, recorder, probe] value in
            probe?.touch()
            recorder.record(value)
            // Reaches the prefix through the merge while it is still delivering 1: queued there, and the last value.
            if value == 1 { second.send(2) }
        }
        let b = prefix.observe(other.handler)
        probe = nil
        source.send(1)
        #expect(recorder.values == [1, 2])
        #expect(other.values == [1, 2])
        #expect(weakProbe.object == nil)
        #expect(prefix.observerCount == 0)
        withExtendedLifetime((a, b)) {}
    }

    @Test("S17 an observer added while the prefix finishes ends with the others")
    func addedWhileFinishing() {
        let prefix = source.signal.prefix(1)
        var late: Subscription?
        let lateValues = RecordingObserver<Int>()
        let a = prefix.observe { [recorder] value in
            recorder.record(value)
            late = prefix.observe(lateValues.handler)
        }
        source.send(1)
        source.send(2)
        #expect(recorder.values == [1])
        #expect(lateValues.values.isEmpty)
        #expect(prefix.observerCount == 0)
        withExtendedLifetime((a, late)) {}
    }
}
