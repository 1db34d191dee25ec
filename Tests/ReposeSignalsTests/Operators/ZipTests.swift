import Testing

@testable import ReposeSignals

@Suite("zip")
struct ZipTests {
    let first = SignalSource<Int>()
    let second = SignalSource<String>()
    let recorder = RecordingObserver<String>()

    @Test("S16 zip pairs the n-th value of each input, in arrival order")
    func pairsInOrder() {
        let subscription = first.signal.zip(second.signal).map { "\($0)\($1)" }.observe(recorder.handler)
        first.send(1)
        first.send(2)
        second.send("a")
        second.send("b")
        second.send("c")
        first.send(3)
        #expect(recorder.values == ["1a", "2b", "3c"])
        _ = subscription
    }

    @Test("S16 unpaired values wait in a buffer whose bound drops the oldest beyond it")
    func boundDropsOldest() {
        let subscription = first.signal.zip(second.signal, bufferLimit: 2).map { "\($0)\($1)" }
            .observe(recorder.handler)
        for value in 1...5 { first.send(value) }
        second.send("a")
        second.send("b")
        second.send("c")
        first.send(6)
        #expect(recorder.values == ["4a", "5b", "6c"])
        _ = subscription
    }

    @Test("S16 the default bound is documented: 64 values per input")
    func defaultBound() {
        #expect(Signal<Int>.defaultZipBufferLimit == 64)
        let subscription = first.signal.zip(second.signal).map { "\($0)\($1)" }.observe(recorder.handler)
        for value in 1...70 { first.send(value) }
        second.send("a")
        #expect(recorder.values == ["7a"])
        _ = subscription
    }

    @Test("S16 zip of three and four signals, and of an array, pairs by position")
    func wider() {
        let third = SignalSource<Bool>()
        let fourth = SignalSource<Double>()
        var triples: [String] = []
        var quadruples: [String] = []
        let arrays = RecordingObserver<[Int]>()
        let a = first.signal.zip(second.signal, third.signal).observe { triples.append("\($0)\($1)\($2)") }
        let b = first.signal.zip(second.signal, third.signal, fourth.signal).observe {
            quadruples.append("\($0)\($1)\($2)\($3)")
        }
        let other = SignalSource<Int>()
        let c = Signal.zip([first.signal, other.signal, first.signal.map { $0 * 10 }]).observe(arrays.handler)
        first.send(1)
        second.send("a")
        third.send(true)
        fourth.send(0.5)
        other.send(7)
        first.send(2)
        #expect(triples == ["1atrue"])
        #expect(quadruples == ["1atrue0.5"])
        #expect(arrays.values == [[1, 7, 10]])
        withExtendedLifetime((a, b, c)) {}
    }

    @Test("S16 one change reaching both inputs pairs them at once")
    func sameSource() {
        let pairs = RecordingObserver<String>()
        let subscription = first.signal.zip(first.signal.map { $0 * 10 }).map { "\($0)-\($1)" }.observe(pairs.handler)
        first.send(1)
        first.send(2)
        #expect(pairs.values == ["1-10", "2-20"])
        _ = subscription
    }

    @Test("S4 S16 values sent from inside an observer are paired after the current delivery, in order")
    func reentrant() {
        let subscription = first.signal.zip(second.signal).map { "\($0)\($1)" }.observe { [first, recorder] value in
            recorder.record(value)
            if value == "1a" {
                first.send(2)
                first.send(3)
            }
        }
        second.send("a")
        second.send("b")
        first.send(1)
        second.send("c")
        #expect(recorder.values == ["1a", "2b", "3c"])
        _ = subscription
    }

    @Test("S8 S16 the waiting values are dropped when the signal loses its last observer")
    func resetOnDisconnect() {
        let zipped = first.signal.zip(second.signal).map { "\($0)\($1)" }
        var subscription = zipped.observe(recorder.handler)
        first.send(1)
        subscription.cancel()
        subscription = zipped.observe(recorder.handler)
        first.send(2)
        second.send("a")
        #expect(recorder.values == ["2a"])
        _ = subscription
    }

    @Test("S16 S17 zip finishes once an input has finished and nothing of it waits")
    func finishing() {
        var probe: LifetimeProbe? = LifetimeProbe()
        let weakProbe = WeakReference(probe)
        let subscription = first.signal.prefix(2).zip(second.signal).map { "\($0)\($1)" }
            .observe { [probe, recorder] value in
                probe?.touch()
                recorder.record(value)
            }
        probe = nil
        first.send(1)
        first.send(2)
        second.send("a")
        #expect(weakProbe.object != nil)
        second.send("b")
        #expect(recorder.values == ["1a", "2b"])
        #expect(weakProbe.object == nil)
        #expect(second.signal.observerCount == 0)
        _ = subscription
    }
}

@Suite("ZipMachine and ZipQueue")
struct ZipMachineTests {
    @Test("S16 a tuple leaves once every input has a value waiting")
    func leavesWhenComplete() {
        var machine = ZipMachine(inputCount: 3, limit: 8)
        let decisions = [
            machine.receive(input: 0), machine.receive(input: 0), machine.receive(input: 1), machine.receive(input: 2),
            machine.receive(input: 1), machine.receive(input: 2),
        ]
        #expect(decisions == [false, false, false, true, false, true])
        #expect(machine.waiting == [0, 0, 0])
    }

    @Test("S16 the count of an input stays at the limit as its oldest value is dropped")
    func limit() {
        var machine = ZipMachine(inputCount: 2, limit: 2)
        for _ in 0..<5 { _ = machine.receive(input: 0) }
        #expect(machine.waiting == [2, 0])
    }

    @Test("S16 S17 the zip is over once a finished input has nothing waiting")
    func over() {
        var machine = ZipMachine(inputCount: 2, limit: 4)
        _ = machine.receive(input: 0)
        let early = machine.finish(input: 0)
        let paired = machine.receive(input: 1)
        #expect(!early)
        #expect(paired)
        #expect(machine.isOver)
    }

    @Test("S16 the queue keeps order across wrap-around and growth, and drops the oldest when full")
    func queue() {
        var queue = ZipQueue<Int>(limit: 6)
        var popped: [Int] = []
        for value in 1...3 { queue.append(value) }
        popped.append(queue.popFirst() ?? 0)
        for value in 4...9 { queue.append(value) }
        while let value = queue.popFirst() { popped.append(value) }
        #expect(popped == [1, 4, 5, 6, 7, 8, 9])
        #expect(queue.isEmpty)
        #expect(queue.storage.count <= 6)
    }
}
