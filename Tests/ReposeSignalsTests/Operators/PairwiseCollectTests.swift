import Testing

@testable import ReposeSignals

@Suite("pairwise and collect(count:)")
struct PairwiseCollectTests {
    let source = SignalSource<Int>()

    @Test("S18 pairwise emits (previous, current) from the second value on")
    func pairwise() {
        var pairs: [String] = []
        let subscription = source.signal.pairwise().observe { pairs.append("\($0)>\($1)") }
        for value in [1, 4, 9] { source.send(value) }
        #expect(pairs == ["1>4", "4>9"])
        _ = subscription
    }

    @Test("S8 S18 pairwise starts afresh when the signal regains its first observer")
    func pairwiseRestart() {
        var pairs: [String] = []
        let signal = source.signal.pairwise()
        var subscription = signal.observe { pairs.append("\($0)>\($1)") }
        source.send(1)
        subscription.cancel()
        subscription = signal.observe { pairs.append("\($0)>\($1)") }
        source.send(2)
        source.send(3)
        #expect(pairs == ["2>3"])
        _ = subscription
    }

    @Test("S18 collect(count:) emits arrays of count consecutive values")
    func collectCount() {
        let recorder = RecordingObserver<[Int]>()
        let subscription = source.signal.collect(count: 2).observe(recorder.handler)
        for value in 1...5 { source.send(value) }
        #expect(recorder.values == [[1, 2], [3, 4]])
        _ = subscription
    }

    @Test("S8 S18 values still collected are dropped when the last observer leaves")
    func collectDroppedOnDisconnect() {
        let recorder = RecordingObserver<[Int]>()
        let signal = source.signal.collect(count: 2)
        var subscription = signal.observe(recorder.handler)
        source.send(1)
        subscription.cancel()
        subscription = signal.observe(recorder.handler)
        source.send(2)
        source.send(3)
        #expect(recorder.values == [[2, 3]])
        _ = subscription
    }

    @Test("S17 S18 when the source finishes, what is collected is delivered as a last, shorter array")
    func collectFinishes() {
        let recorder = RecordingObserver<[Int]>()
        let subscription = source.signal.prefix(3).collect(count: 2).observe(recorder.handler)
        for value in 1...4 { source.send(value) }
        #expect(recorder.values == [[1, 2], [3]])
        #expect(source.signal.observerCount == 0)
        _ = subscription
    }

    @Test("S4 S18 values sent from inside an observer of collect are collected after the current delivery")
    func collectReentrant() {
        let recorder = RecordingObserver<[Int]>()
        let subscription = source.signal.collect(count: 2).observe { [source, recorder] values in
            recorder.record(values)
            if values == [1, 2] {
                source.send(3)
                source.send(4)
            }
        }
        source.send(1)
        source.send(2)
        #expect(recorder.values == [[1, 2], [3, 4]])
        _ = subscription
    }
}

@Suite("collect(every:scheduler:)")
struct CollectByTimeTests {
    let scheduler = TestScheduler()
    let source = SignalSource<Int>()
    let recorder = RecordingObserver<[Int]>()

    var windows: Signal<[Int]> { source.signal.collect(every: .seconds(1), scheduler: scheduler) }

    @Test("S13 S18 a window opens with the first value and delivers its values when the interval has passed")
    func basic() {
        let subscription = windows.observe(recorder.handler)
        source.send(1)
        scheduler.advance(by: .milliseconds(999))
        #expect(recorder.values.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        #expect(recorder.values == [[1]])
        _ = subscription
    }

    @Test("S18 a burst is delivered as one array per window, in order")
    func burst() {
        let subscription = windows.observe(recorder.handler)
        for value in 1...5 {
            source.send(value)
            scheduler.advance(by: .milliseconds(400))
        }
        scheduler.run()
        #expect(recorder.values == [[1, 2, 3], [4, 5]])
        _ = subscription
    }

    @Test("S18 a window that saw no value emits nothing, and no timer runs while no value comes")
    func emptyWindow() {
        let subscription = windows.observe(recorder.handler)
        #expect(scheduler.pendingCount == 0)
        source.send(1)
        scheduler.advance(by: .seconds(5))
        #expect(scheduler.pendingCount == 0)
        source.send(2)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.values == [[1], [2]])
        _ = subscription
    }

    @Test("S18 an open window is dropped when the subscription ends")
    func endWhilePending() {
        let subscription = windows.observe(recorder.handler)
        source.send(1)
        subscription.cancel()
        #expect(scheduler.pendingCount == 0)
        scheduler.advance(by: .seconds(2))
        #expect(recorder.values.isEmpty)
    }

    @Test("S1 S18 nothing is delivered once the owner is gone, and the chain is released")
    func ownerGoesAway() {
        var owner: StubOwner? = StubOwner()
        var probe: LifetimeProbe? = LifetimeProbe()
        let weakProbe = WeakReference(probe)
        windows.observe(owner: owner ?? StubOwner()) { [probe, recorder] values in
            probe?.touch()
            recorder.record(values)
        }
        probe = nil
        source.send(1)
        owner = nil
        scheduler.advance(by: .seconds(1))
        #expect(recorder.values.isEmpty)
        #expect(weakProbe.object == nil)
        #expect(source.signal.observerCount == 0)
        #expect(scheduler.pendingCount == 0)
    }

    @Test("S17 S18 when the source finishes, the open window is delivered at once")
    func finishes() {
        let subscription = source.signal.prefix(2).collect(every: .seconds(1), scheduler: scheduler)
            .observe(recorder.handler)
        source.send(1)
        source.send(2)
        #expect(recorder.values == [[1, 2]])
        #expect(scheduler.pendingCount == 0)
        _ = subscription
    }
}

@Suite("CollectMachine")
struct CollectMachineTests {
    @Test("S18 by count, an array leaves when full")
    func byCount() {
        var machine = CollectMachine<Int>(count: 2)
        var emitted: [[Int]] = []
        for value in 1...5 {
            if case .emit(let values) = machine.receive(value) { emitted.append(values) }
        }
        #expect(emitted == [[1, 2], [3, 4]])
        #expect(machine.collected == [5])
    }

    @Test("S18 by time, the first value opens a window, and an empty window gives nothing")
    func byTime() {
        var machine = CollectMachine<Int>(count: nil)
        var opened = 0
        for value in 1...3 {
            if case .openWindow = machine.receive(value) { opened += 1 }
        }
        guard case .emit(let values) = machine.windowClosed() else {
            Issue.record("expected the window's values")
            return
        }
        #expect(opened == 1)
        #expect(values == [1, 2, 3])
        guard case .none = machine.windowClosed() else {
            Issue.record("expected nothing for an empty window")
            return
        }
    }
}
