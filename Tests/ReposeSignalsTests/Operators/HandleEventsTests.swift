import Testing

@testable import ReposeSignals

@Suite("handleEvents")
struct HandleEventsTests {
    let source = SignalSource<Int>()

    @Test("S23 handleEvents sees connection, each value before any observer, and disconnection; values pass unchanged")
    func tap() {
        let log = RecordingLog()
        let tapped = source.signal.handleEvents(
            receiveSubscription: { log.append("connected") }, receiveOutput: { log.append("value \($0)") },
            receiveCompletion: { log.append("finished") }, receiveCancel: { log.append("disconnected") })
        let a = tapped.observe { log.append("a \($0)") }
        let b = tapped.observe { log.append("b \($0)") }
        source.send(1)
        a.cancel()
        b.cancel()
        #expect(log.events == ["connected", "value 1", "a 1", "b 1", "disconnected"])
    }

    @Test("S17 S23 a finishing source reports completion instead of cancellation")
    func completion() {
        let log = RecordingLog()
        let subscription = source.signal.prefix(1).handleEvents(
            receiveOutput: { log.append("value \($0)") }, receiveCompletion: { log.append("finished") },
            receiveCancel: { log.append("disconnected") }
        ).observe { log.append("got \($0)") }
        source.send(1)
        #expect(log.events == ["value 1", "got 1", "finished"])
        _ = subscription
    }
}
