import Testing

@testable import ReposeSignals

@Suite("sample")
struct SampleTests {
    let source = SignalSource<Int>()
    let ticks = SignalSource<Void>()
    let recorder = RecordingObserver<Int>()

    @Test("S15 sample delivers the latest value on each tick, at most once per source value")
    func basic() {
        let subscription = source.signal.sample(ticks.signal).observe(recorder.handler)
        ticks.send(())
        source.send(1)
        source.send(2)
        ticks.send(())
        ticks.send(())
        source.send(3)
        ticks.send(())
        #expect(recorder.values == [2, 3])
        _ = subscription
    }

    @Test("S9 S15 a tick caused by the same change as the value sees the new value")
    func sameChange() {
        let subscription = source.signal.sample(source.signal.filter { $0.isMultiple(of: 2) }).observe(recorder.handler)
        for value in 1...4 { source.send(value) }
        #expect(recorder.values == [2, 4])
        _ = subscription
    }

    @Test("S15 S20 sampling on a timer delivers at most one value per tick, in virtual time")
    func onTimer() {
        let scheduler = TestScheduler()
        let subscription = source.signal.sample(Signal.timer(every: .seconds(1), scheduler: scheduler))
            .observe(recorder.handler)
        source.send(1)
        source.send(2)
        scheduler.advance(by: .seconds(1))
        scheduler.advance(by: .seconds(1))
        source.send(3)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.values == [2, 3])
        subscription.cancel()
        #expect(scheduler.pendingCount == 0)
    }

    @Test("S15 S17 the result finishes with the trigger, or once the finished source's last value is out")
    func finishing() {
        let a = source.signal.sample(ticks.signal.prefix(1)).observe(recorder.handler)
        source.send(1)
        ticks.send(())
        #expect(ticks.signal.observerCount == 0)
        #expect(source.signal.observerCount == 0)
        let other = SignalSource<Int>()
        let b = other.signal.prefix(1).sample(ticks.signal).observe(recorder.handler)
        other.send(5)
        #expect(ticks.signal.observerCount == 1)
        ticks.send(())
        #expect(ticks.signal.observerCount == 0)
        #expect(recorder.values == [1, 5])
        withExtendedLifetime((a, b)) {}
    }
}

@Suite("SampleMachine")
struct SampleMachineTests {
    @Test("S15 a value is sampled once; a tick without a new value gives nothing")
    func once() {
        var machine = SampleMachine<Int>()
        var scheduled = [machine.tick()]
        var flushed = [machine.flush()]
        machine.receive(1)
        scheduled += [machine.tick(), machine.tick()]
        flushed.append(machine.flush())
        scheduled.append(machine.tick())
        flushed.append(machine.flush())
        #expect(scheduled == [true, true, false, true])
        #expect(flushed == [nil, 1, nil])
    }
}
