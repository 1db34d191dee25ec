import Testing

@testable import ReposeSignals

@Suite("removeDuplicates")
struct RemoveDuplicatesTests {
    let source = SignalSource<Int>()
    let recorder = RecordingObserver<Int>()

    @Test(
        "removeDuplicates skips values equal to the previous one",
        arguments: [
            ([1, 1, 2, 2, 1], [1, 2, 1]),
            ([3, 3, 3], [3]),
            ([], []),
        ])
    func equal(input: [Int], expected: [Int]) {
        let subscription = source.signal.removeDuplicates().observe(recorder.handler)
        for value in input { source.send(value) }
        #expect(recorder.values == expected)
        _ = subscription
    }

    @Test("removeDuplicates(by:) uses the given equivalence")
    func by() {
        let subscription = source.signal.removeDuplicates { $0 / 10 == $1 / 10 }.observe(recorder.handler)
        for value in [1, 5, 12, 18, 3] { source.send(value) }
        #expect(recorder.values == [1, 12, 3])
        _ = subscription
    }

    @Test("removeDuplicates starts afresh after losing its last observer")
    func resetsOnReconnect() {
        let distinct = source.signal.removeDuplicates()
        var subscription = distinct.observe(recorder.handler)
        source.send(1)
        subscription.cancel()
        subscription = distinct.observe(recorder.handler)
        source.send(1)
        #expect(recorder.values == [1, 1])
        _ = subscription
    }
}
