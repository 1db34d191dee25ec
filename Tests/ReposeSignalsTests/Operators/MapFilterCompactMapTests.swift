import Testing

@testable import ReposeSignals

@Suite("map, filter, compactMap")
struct MapFilterCompactMapTests {
    let source = SignalSource<Int>()

    @Test("map delivers the transformed values")
    func map() {
        let recorder = RecordingObserver<String>()
        let subscription = source.signal.map { "#\($0)" }.observe(recorder.handler)
        source.send(1)
        source.send(2)
        #expect(recorder.values == ["#1", "#2"])
        _ = subscription
    }

    @Test("map runs its transform once per value, however many observers share it")
    func mapIsShared() {
        var calls = 0
        let mapped = source.signal.map { value -> Int in
            calls += 1
            return value
        }
        let first = mapped.observe { _ in }
        let second = mapped.observe { _ in }
        source.send(1)
        #expect(calls == 1)
        _ = (first, second)
    }

    @Test("filter delivers only the values that pass")
    func filter() {
        let recorder = RecordingObserver<Int>()
        let subscription = source.signal.filter { $0.isMultiple(of: 2) }.observe(recorder.handler)
        for value in 1...6 { source.send(value) }
        #expect(recorder.values == [2, 4, 6])
        _ = subscription
    }

    @Test("compactMap delivers the non-nil results")
    func compactMap() {
        let texts = SignalSource<String>()
        let recorder = RecordingObserver<Int>()
        let subscription = texts.signal.compactMap { Int($0) }.observe(recorder.handler)
        for text in ["1", "x", "3", ""] { texts.send(text) }
        #expect(recorder.values == [1, 3])
        _ = subscription
    }

    @Test("a chain of operators keeps working when only its subscription is kept")
    func chainKeptAliveBySubscription() {
        let recorder = RecordingObserver<Int>()
        let subscription = source.signal.map { $0 + 1 }.filter { $0 > 1 }.map { $0 * 10 }.observe(recorder.handler)
        source.send(0)
        source.send(1)
        #expect(recorder.values == [20])
        _ = subscription
    }
}
