import Testing

@testable import ReposeSignals

/// Counts from 1 to `limit`, then ends: a finite sequence that can be iterated any number of times.
struct CountingSequence: AsyncSequence, Sendable {
    typealias Element = Int
    let limit: Int

    struct AsyncIterator: AsyncIteratorProtocol {
        var current = 0
        let limit: Int

        mutating func next() async -> Int? {
            guard current < limit else { return nil }
            current += 1
            return current
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(limit: limit) }
}

@Suite("An AsyncSequence as a Signal")
@MainActor
struct AsyncSequenceSignalTests {
    @Test("S21 an async sequence's elements are delivered, in order, while the signal is observed")
    func delivers() async {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let signal = Signal(stream)
        let recorder = RecordingObserver<Int>()
        let subscription = signal.observe(recorder.handler)
        continuation.yield(1)
        continuation.yield(2)
        guard await waitUntil({ recorder.values.count == 2 }) else { return }
        #expect(recorder.values == [1, 2])
        _ = subscription
    }

    @Test("S21 the iteration is cancelled when the last observer leaves, and nothing more is delivered")
    func cancelledWhenUnobserved() async {
        let terminated = SharedCounter()
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        continuation.onTermination = { _ in terminated.increment() }
        let signal = Signal(stream)
        let recorder = RecordingObserver<Int>()
        let a = signal.observe(recorder.handler)
        let b = signal.observe(recorder.handler)
        continuation.yield(1)
        guard await waitUntil({ recorder.values.count == 2 }) else { return }
        a.cancel()
        #expect(terminated.count == 0)
        b.cancel()
        guard await waitUntil({ terminated.count == 1 }) else { return }
        continuation.yield(2)
        #expect(recorder.values == [1, 1])
        #expect(!signal.isConnected)
    }

    @Test("S17 S21 when the sequence ends the signal finishes: observers end, and the signal and closures are freed")
    func endFinishes() async {
        var signal: Signal<Int>? = Signal(CountingSequence(limit: 3))
        let weakSignal = WeakReference(signal)
        let recorder = RecordingObserver<Int>()
        var probe: LifetimeProbe? = LifetimeProbe()
        let weakProbe = WeakReference(probe)
        let owner = StubOwner()
        // Only the owner is kept: while connected, the iteration keeps the signal, as a derived signal's inputs do.
        signal?.observe(owner: owner) { [probe, recorder] _, value in
            probe?.touch()
            recorder.record(value)
        }
        signal = nil
        probe = nil
        guard await waitUntil({ weakProbe.object == nil }) else { return }
        #expect(recorder.values == [1, 2, 3])
        guard await waitUntil({ weakSignal.object == nil }) else { return }
    }

    @Test("S21 a new first observer iterates the sequence afresh")
    func iteratesAfresh() async {
        let signal = Signal(CountingSequence(limit: 2))
        let recorder = RecordingObserver<Int>()
        for _ in 1...2 {
            let subscription = signal.observe(recorder.handler)
            guard await waitUntil({ signal.observerCount == 0 }) else { return }
            _ = subscription
        }
        #expect(recorder.values == [1, 2, 1, 2])
    }

    @Test("S14 S17 S21 a for-await loop over a finishing signal ends by itself")
    func valuesEnd() async {
        let source = SignalSource<Int>()
        let signal = source.signal.prefix(2)
        let task = Task { @MainActor in
            var received: [Int] = []
            for await value in signal.values { received.append(value) }
            return received
        }
        guard await waitUntil({ source.signal.observerCount == 1 }) else {
            task.cancel()
            return
        }
        source.send(1)
        source.send(2)
        #expect(await task.value == [1, 2])
    }
}
