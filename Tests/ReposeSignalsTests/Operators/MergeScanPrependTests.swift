import Testing

@testable import ReposeSignals

@Suite("merge, scan, prepend")
struct MergeScanPrependTests {
    let first = SignalSource<Int>()
    let second = SignalSource<Int>()
    let recorder = RecordingObserver<Int>()

    @Test("merge delivers values from every input as they arrive")
    func merge() {
        let third = SignalSource<Int>()
        let subscription = first.signal.merge(with: second.signal, third.signal).observe(recorder.handler)
        first.send(1)
        third.send(3)
        second.send(2)
        first.send(4)
        #expect(recorder.values == [1, 3, 2, 4])
        _ = subscription
    }

    @Test("merge of an empty array never delivers")
    func mergeEmpty() {
        let subscription = Signal<Int>.merge([]).observe(recorder.handler)
        #expect(recorder.values.isEmpty)
        _ = subscription
    }

    @Test("scan delivers the running accumulation")
    func scan() {
        let subscription = first.signal.scan(0, +).observe(recorder.handler)
        for value in [1, 2, 3] { first.send(value) }
        #expect(recorder.values == [1, 3, 6])
        _ = subscription
    }

    @Test("scan starts again from its initial value after losing its last observer")
    func scanResets() {
        let total = first.signal.scan(100, +)
        var subscription = total.observe(recorder.handler)
        first.send(1)
        subscription.cancel()
        subscription = total.observe(recorder.handler)
        first.send(1)
        #expect(recorder.values == [101, 101])
        _ = subscription
    }

    @Test("prepend gives each new observer the prefix first, then live values")
    func prepend() {
        let other = RecordingObserver<Int>()
        let prefixed = first.signal.prepend(-2, -1)
        let a = prefixed.observe(recorder.handler)
        first.send(1)
        let b = prefixed.observe(other.handler)
        first.send(2)
        #expect(recorder.values == [-2, -1, 1, 2])
        #expect(other.values == [-2, -1, 2])
        _ = (a, b)
    }

    @Test("S4 a value sent while the prefix is replayed arrives after the prefix")
    func prependThenReentrantSend() {
        let prefixed = first.signal.prepend(contentsOf: [7, 8])
        let subscription = prefixed.observe { value in
            self.recorder.record(value)
            if value == 7 { self.first.send(9) }
        }
        #expect(recorder.values == [7, 8, 9])
        _ = subscription
    }

    @Test("prepend on top of prepend delivers the outer prefix first")
    func nestedPrepend() {
        let subscription = first.signal.prepend(2).prepend(1).observe(recorder.handler)
        first.send(3)
        #expect(recorder.values == [1, 2, 3])
        _ = subscription
    }

    @Test("an observer that cancels during its prefix leaves the signal disconnected")
    func cancelDuringPrefix() {
        var subscription: Subscription?
        subscription = first.signal.prepend(0).observe { _ in subscription?.cancel() }
        subscription?.cancel()
        #expect(first.signal.observerCount == 0)
    }
}
