import Testing

@testable import ReposeSignals

@Suite("withLatestFrom")
struct WithLatestFromTests {
    let trigger = SignalSource<String>()
    let other = SignalSource<Int>()
    let recorder = RecordingObserver<String>()

    var paired: Signal<String> { trigger.signal.withLatestFrom(other.signal).map { "\($0)\($1)" } }

    @Test("S15 withLatestFrom delivers nothing until the other signal has a value, then pairs each trigger value")
    func pairsWithLatest() {
        let subscription = paired.observe(recorder.handler)
        trigger.send("a")
        other.send(1)
        other.send(2)
        trigger.send("b")
        trigger.send("c")
        other.send(3)
        trigger.send("d")
        #expect(recorder.values == ["b2", "c2", "d3"])
        _ = subscription
    }

    @Test("S9 S15 one change reaching both inputs pairs the trigger value with the other's new value")
    func glitchFree() {
        let source = SignalSource<Int>()
        let pairs = RecordingObserver<String>()
        let subscription = source.signal.withLatestFrom(source.signal.map { $0 * 10 }).map { "\($0)-\($1)" }
            .observe(pairs.handler)
        source.send(1)
        source.send(2)
        #expect(pairs.values == ["1-10", "2-20"])
        _ = subscription
    }

    @Test("S9 S15 the other input reached through a combineLatest is up to date as well")
    func glitchFreeThroughCombineLatest() {
        let source = SignalSource<Int>()
        let pairs = RecordingObserver<String>()
        let sum = source.signal.combineLatest(source.signal.map { $0 * 10 }).map { $0 + $1 }
        let subscription = source.signal.withLatestFrom(sum).map { "\($0)-\($1)" }.observe(pairs.handler)
        source.send(1)
        source.send(2)
        #expect(pairs.values == ["1-11", "2-22"])
        _ = subscription
    }

    @Test("S15 the form over a state reads its value as the trigger fires, so every trigger value is paired")
    func stateForm() {
        let form = MutableState("draft")
        let submitted = RecordingObserver<String>()
        let subscription = trigger.signal.withLatestFrom(form.state).map { "\($0):\($1)" }.observe(submitted.handler)
        trigger.send("tap")
        form.value = "final"
        trigger.send("tap")
        #expect(submitted.values == ["tap:draft", "tap:final"])
        _ = subscription
    }

    @Test("S4 S15 trigger values sent from inside an observer are each paired, in order")
    func reentrant() {
        let subscription = paired.observe { [trigger, recorder] value in
            recorder.record(value)
            if value == "a1" {
                trigger.send("b")
                trigger.send("c")
            }
        }
        other.send(1)
        trigger.send("a")
        #expect(recorder.values == ["a1", "b1", "c1"])
        _ = subscription
    }

    @Test("S8 S15 disconnecting forgets the other's latest value")
    func resetOnDisconnect() {
        let signal = paired
        var subscription = signal.observe(recorder.handler)
        other.send(1)
        trigger.send("a")
        subscription.cancel()
        subscription = signal.observe(recorder.handler)
        trigger.send("b")
        other.send(2)
        trigger.send("c")
        #expect(recorder.values == ["a1", "c2"])
        #expect(other.signal.observerCount == 1)
        _ = subscription
    }

    @Test("S15 S17 the result finishes with the trigger; the other finishing keeps its last value")
    func finishing() {
        var probe: LifetimeProbe? = LifetimeProbe()
        let weakProbe = WeakReference(probe)
        let subscription = trigger.signal.prefix(2).withLatestFrom(other.signal.prefix(1)).map { "\($0)\($1)" }
            .observe { [probe, recorder] value in
                probe?.touch()
                recorder.record(value)
            }
        probe = nil
        other.send(1)
        other.send(2)
        trigger.send("a")
        #expect(weakProbe.object != nil)
        trigger.send("b")
        #expect(recorder.values == ["a1", "b1"])
        #expect(weakProbe.object == nil)
        #expect(trigger.signal.observerCount == 0)
        _ = subscription
    }
}

@Suite("LatestFromMachine")
struct LatestFromMachineTests {
    @Test("S15 trigger values wait for one flush; the first one schedules it and waits apart from the rest")
    func schedulesOnce() {
        var machine = LatestFromMachine<String, Int>()
        let first = machine.receiveTrigger("a")
        let second = machine.receiveTrigger("b")
        let third = machine.receiveTrigger("c")
        #expect(first && !second && !third)
        machine.receiveOther(1)
        var taken: ContiguousArray<String> = []
        let flushed = machine.flush(swappingRestInto: &taken)
        #expect(flushed.first == "a" && flushed.other == 1)
        #expect(Array(taken) == ["b", "c"])
        #expect(machine.rest.isEmpty && !machine.isScheduled)
        let again = machine.receiveTrigger("d")
        #expect(again)
    }

    @Test("S15 without a value of the other input the flush has nothing to pair with")
    func noOther() {
        var machine = LatestFromMachine<String, Int>()
        _ = machine.receiveTrigger("a")
        var taken: ContiguousArray<String> = []
        let flushed = machine.flush(swappingRestInto: &taken)
        #expect(flushed.first == "a" && flushed.other == nil)
        machine.receiveOther(1)
        machine.reset()
        #expect(machine.latest == nil)
    }
}
