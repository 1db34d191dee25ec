import Testing

@testable import ReposeSignals

@Suite("Signal delivery")
struct SignalDeliveryTests {
    let source = SignalSource<Int>()
    let log = RecordingLog()

    @Test("S3 values arrive synchronously, in send order, to observers in subscription order")
    func orderedDelivery() {
        let first = source.signal.observe { self.log.append("first \($0)") }
        let second = source.signal.observe { self.log.append("second \($0)") }
        source.send(1)
        #expect(log.events == ["first 1", "second 1"])
        source.send(2)
        #expect(log.events == ["first 1", "second 1", "first 2", "second 2"])
        _ = (first, second)
    }

    @Test("S4 a value sent from inside an observer is queued until the current delivery finishes")
    func reentrantSendIsQueued() {
        let first = source.signal.observe { value in
            self.log.append("first \(value)")
            if value == 1 {
                self.source.send(2)
                self.source.send(3)
            }
        }
        let second = source.signal.observe { self.log.append("second \($0)") }
        source.send(1)
        #expect(
            log.events == ["first 1", "second 1", "first 2", "second 2", "first 3", "second 3"])
        _ = (first, second)
    }

    @Test("S4 a re-entrant send through a derived signal reaches every observer in order")
    func reentrantSendThroughDerivedSignal() {
        let doubled = source.signal.map { $0 * 2 }
        let first = doubled.observe { value in
            self.log.append("first \(value)")
            if value == 2 { self.source.send(5) }
        }
        let second = doubled.observe { self.log.append("second \($0)") }
        source.send(1)
        #expect(log.events == ["first 2", "second 2", "first 10", "second 10"])
        _ = (first, second)
    }

    @Test("S5 an observer added during a delivery does not receive the value being delivered")
    func observerAddedDuringDelivery() {
        var late: Subscription?
        let first = source.signal.observe { value in
            self.log.append("first \(value)")
            if late == nil {
                late = self.source.signal.observe { self.log.append("late \($0)") }
            }
        }
        source.send(1)
        source.send(2)
        #expect(log.events == ["first 1", "first 2", "late 2"])
        _ = (first, late)
    }

    @Test("S5 an observer removed during a delivery receives nothing more")
    func observerRemovedDuringDelivery() {
        var second: Subscription?
        let first = source.signal.observe { value in
            self.log.append("first \(value)")
            second?.cancel()
        }
        second = source.signal.observe { self.log.append("second \($0)") }
        source.send(1)
        source.send(2)
        #expect(log.events == ["first 1", "first 2"])
        _ = first
    }

    @Test("S3 ten thousand observers cancelled in random order leave the rest receiving, in order")
    func manyObserversCancelledInRandomOrder() {
        let recorder = RecordingObserver<Int>()
        var subscriptions: [Int: Subscription] = [:]
        for index in 0..<10_000 {
            subscriptions[index] = source.signal.observe { _ in recorder.record(index) }
        }
        var generator = SplitMix(seed: 42)
        let cancelled = Set((0..<10_000).shuffled(using: &generator).prefix(7_000))
        for index in cancelled.shuffled(using: &generator) {
            subscriptions[index]?.cancel()
        }
        source.send(0)
        #expect(recorder.values == (0..<10_000).filter { !cancelled.contains($0) })
        #expect(source.signal.observerCount == 3_000)
        #expect(source.signal.entries.count < 10_000)
    }
}

/// A small deterministic random generator, so shuffles are the same on every run.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
