import Testing

@testable import ReposeSignals

@Suite("combineLatest")
struct CombineLatestTests {
    let numbers = SignalSource<Int>()
    let letters = SignalSource<String>()

    @Test("S9 combineLatest waits for every input, then emits on every change of any")
    func waitsThenEmits() {
        var seen: [String] = []
        let subscription = numbers.signal.combineLatest(letters.signal).observe { seen.append("\($0)\($1)") }
        numbers.send(1)
        numbers.send(2)
        #expect(seen.isEmpty)
        letters.send("a")
        numbers.send(3)
        letters.send("b")
        #expect(seen == ["2a", "3a", "3b"])
        _ = subscription
    }

    @Test("S9 one send reaching both inputs through the same source emits once, with no glitch")
    func glitchFree() {
        let combined = numbers.signal.map { $0 * 10 }.combineLatest(numbers.signal.map { $0 + 1 })
        var seen: [String] = []
        let subscription = combined.observe { seen.append("\($0)/\($1)") }
        numbers.send(1)
        numbers.send(2)
        #expect(seen == ["10/2", "20/3"])
        _ = subscription
    }

    @Test("S9 a diamond three levels deep still emits once per send")
    func nestedGlitchFree() {
        let source = numbers.signal
        let combined = source.combineLatest(source.map { $0 * 2 }, source.filter { _ in true }, source.map { -$0 })
        var seen: [String] = []
        let subscription = combined.observe { seen.append("\($0) \($1) \($2) \($3)") }
        numbers.send(1)
        numbers.send(2)
        #expect(seen == ["1 2 1 -1", "2 4 2 -2"])
        _ = subscription
    }

    @Test("S4 S9 re-entrant sends each produce their own combined value")
    func reentrantSendsAreNotCoalesced() {
        let combined = numbers.signal.map { $0 }.combineLatest(numbers.signal.map { $0 })
        var seen: [Int] = []
        let trigger = numbers.signal.observe { if $0 == 1 { self.numbers.send(2) } }
        let subscription = combined.observe { seen.append($0 + $1) }
        numbers.send(1)
        #expect(seen == [2, 4])
        _ = (trigger, subscription)
    }

    @Test("three inputs combine into triples")
    func triple() {
        let flags = SignalSource<Bool>()
        var seen: [String] = []
        let subscription = numbers.signal.combineLatest(letters.signal, flags.signal).observe {
            seen.append("\($0)\($1)\($2)")
        }
        numbers.send(1)
        letters.send("a")
        flags.send(true)
        flags.send(false)
        #expect(seen == ["1atrue", "1afalse"])
        _ = subscription
    }

    @Test("an array of inputs combines into arrays in input order")
    func array() {
        let sources = (0..<3).map { _ in SignalSource<Int>() }
        let recorder = RecordingObserver<[Int]>()
        let subscription = Signal.combineLatest(sources.map(\.signal)).observe(recorder.handler)
        sources[2].send(3)
        sources[0].send(1)
        sources[1].send(2)
        sources[0].send(10)
        #expect(recorder.values == [[1, 2, 3], [10, 2, 3]])
        _ = subscription
    }

    @Test("combineLatest forgets the inputs' values when it loses its last observer")
    func resetsOnReconnect() {
        let combined = numbers.signal.combineLatest(letters.signal)
        var seen: [String] = []
        var subscription = combined.observe { seen.append("\($0)\($1)") }
        numbers.send(1)
        letters.send("a")
        subscription.cancel()
        subscription = combined.observe { seen.append("\($0)\($1)") }
        numbers.send(2)
        #expect(seen == ["1a"])
        _ = subscription
    }
}
