import Testing

@testable import ReposeSignals

@Suite("flatMapLatest")
struct FlatMapLatestTests {
    let selection = SignalSource<Int>()
    let inners = [SignalSource<String>(), SignalSource<String>()]
    let recorder = RecordingObserver<String>()

    @Test("S12 flatMapLatest follows the newest inner signal and drops the previous one at once")
    func switches() {
        let followed = selection.signal.flatMapLatest { self.inners[$0].signal }
        let subscription = followed.observe(recorder.handler)
        selection.send(0)
        inners[0].send("a")
        selection.send(1)
        #expect(inners[0].signal.observerCount == 0)
        inners[0].send("stale")
        inners[1].send("b")
        #expect(recorder.values == ["a", "b"])
        _ = subscription
    }

    @Test("S8 S12 ending the subscription unsubscribes from the outer and the current inner signal")
    func teardown() {
        let subscription = selection.signal.flatMapLatest { self.inners[$0].signal }.observe(recorder.handler)
        selection.send(1)
        subscription.cancel()
        #expect(selection.signal.observerCount == 0)
        #expect(inners[1].signal.observerCount == 0)
    }

    @Test("S12 an inner signal with a prefix delivers it when followed")
    func innerPrefix() {
        let subscription = selection.signal.flatMapLatest { self.inners[$0].signal.prepend("start \($0)") }
            .observe(recorder.handler)
        selection.send(0)
        selection.send(1)
        inners[1].send("x")
        #expect(recorder.values == ["start 0", "start 1", "x"])
        _ = subscription
    }
}
