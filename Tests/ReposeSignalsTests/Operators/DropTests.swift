import Testing

@testable import ReposeSignals

@Suite("dropFirst and drop(while:)")
struct DropTests {
    let source = SignalSource<Int>()
    let recorder = RecordingObserver<Int>()

    @Test("S17 dropFirst(n) skips n values, then delivers every value")
    func dropFirst() {
        let subscription = source.signal.dropFirst(2).observe(recorder.handler)
        for value in 1...5 { source.send(value) }
        #expect(recorder.values == [3, 4, 5])
        _ = subscription
    }

    @Test("S17 dropFirst() skips one value; a state's signal of changes after the first")
    func dropFirstDefault() {
        let state = MutableState(0)
        let subscription = state.state.signal.dropFirst().observe(recorder.handler)
        state.value = 1
        state.value = 2
        #expect(recorder.values == [2])
        _ = subscription
    }

    @Test("S17 drop(while:) skips leading values while the predicate holds, then delivers every value")
    func dropWhile() {
        let subscription = source.signal.drop { $0 < 3 }.observe(recorder.handler)
        for value in [1, 2, 3, 1, 5] { source.send(value) }
        #expect(recorder.values == [3, 1, 5])
        _ = subscription
    }

    @Test("S8 S17 the count and the skipping start afresh when the signal regains its first observer")
    func restartOnReconnect() {
        let dropped = source.signal.dropFirst()
        let skipping = source.signal.drop { $0 < 10 }
        let other = RecordingObserver<Int>()
        var first = dropped.observe(recorder.handler)
        var second = skipping.observe(other.handler)
        source.send(1)
        source.send(10)
        first.cancel()
        second.cancel()
        first = dropped.observe(recorder.handler)
        second = skipping.observe(other.handler)
        source.send(2)
        source.send(3)
        #expect(recorder.values == [10, 3])
        #expect(other.values == [10])
        withExtendedLifetime((first, second)) {}
    }
}
