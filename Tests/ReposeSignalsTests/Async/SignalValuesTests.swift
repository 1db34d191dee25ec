import Testing

@testable import ReposeSignals

@Suite("values (AsyncSequence bridge)")
@MainActor
struct SignalValuesTests {
    let source = SignalSource<Int>()

    /// Lets `task` start iterating and subscribe; no sleeping, only yielding the main actor. The wait is bounded: if
    /// the subscription does not come within `limit`, it records an issue, cancels `task` and returns `false`, so the
    /// test ends failed instead of hanging.
    func waitUntilObserved<Success>(
        _ signal: Signal<Int>, by task: Task<Success, Never>, within limit: Duration = .seconds(60),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: limit)
        while signal.observerCount < 1 {
            guard clock.now < deadline else {
                Issue.record("the iterating task did not subscribe within \(limit)", sourceLocation: sourceLocation)
                task.cancel()
                return false
            }
            await Task.yield()
        }
        return true
    }

    @Test("S14 a signal's values arrive in order through for-await")
    func iterates() async {
        let signal = source.signal
        let task = Task { @MainActor in
            var received: [Int] = []
            for await value in signal.values {
                received.append(value)
                if received.count == 3 { break }
            }
            return received
        }
        guard await waitUntilObserved(signal, by: task) else { return }
        source.send(1)
        source.send(2)
        source.send(3)
        #expect(await task.value == [1, 2, 3])
    }

    @Test("S14 a state's values start with its current value")
    func stateReplays() async {
        let state = MutableState(7)
        let task = Task { @MainActor in
            var iterator = state.state.values.makeAsyncIterator()
            return await iterator.next()
        }
        #expect(await task.value == 7)
    }

    @Test("S14 cancelling the iterating task ends the iteration and the subscription")
    func cancellationEnds() async {
        let signal = source.signal
        var probe: LifetimeProbe? = LifetimeProbe()
        let weakProbe = WeakReference(probe)
        let task = Task { @MainActor [probe] in
            var count = 0
            for await _ in signal.values {
                probe?.touch()
                count += 1
            }
            return count
        }
        probe = nil
        guard await waitUntilObserved(signal, by: task) else { return }
        source.send(1)
        task.cancel()
        _ = await task.value
        // The subscription belongs to the signal's domain: it is removed at the signal's next delivery.
        source.send(2)
        #expect(signal.observerCount == 0)
        #expect(weakProbe.object == nil)
    }

    @Test("S14 leaving the loop early also ends the subscription")
    func breakEnds() async {
        let signal = source.signal
        let task = Task { @MainActor in
            for await value in signal.values where value == 1 { break }
        }
        guard await waitUntilObserved(signal, by: task) else { return }
        source.send(1)
        await task.value
        source.send(2)
        #expect(signal.observerCount == 0)
    }
}
