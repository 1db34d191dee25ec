import Benchmark
import OpenCombine
import ReposeSignals

// The operators of rules S15–S19 and S23, per send, each beside a hand-written closure doing the same work (the
// baseline) and, where OpenCombine 0.14 has the operator, beside OpenCombine.

/// A value with fields, for the key-path operators.
struct Point {
    var x: Int
    var y: Int
}

/// One stateless (or one-value-of-state) operator, measured per send against a baseline closure.
func statelessOperatorBenchmarks() {
    operatorCase(
        "map by key path", input: { Point(x: $0, y: 1) }, repose: { $0.map(\.x) },
        baseline: { sink in { sink.total &+= $0.x } })
    operatorCase(
        "map by closure", input: { Point(x: $0, y: 1) }, repose: { $0.map { $0.x } },
        baseline: { sink in { sink.total &+= $0.x } })
    operatorCase(
        "dropFirst", repose: { $0.dropFirst() },
        baseline: { sink in
            var dropped = false
            return { value in
                if dropped { sink.total &+= value } else { dropped = true }
            }
        })
    operatorCase(
        "drop while", repose: { $0.drop { $0 < 0 } },
        baseline: { sink in
            var dropping = true
            return { value in
                if dropping, value < 0 { return }
                dropping = false
                sink.total &+= value
            }
        })
    operatorCase(
        "prefix (running)", repose: { $0.prefix(.max - 1) },
        baseline: { sink in
            var remaining = Int.max - 1
            return { value in
                guard remaining > 0 else { return }
                remaining -= 1
                sink.total &+= value
            }
        })
    operatorCase(
        "prefix while (running)", repose: { $0.prefix { $0 >= 0 } },
        baseline: { sink in
            var done = false
            return { value in
                guard !done else { return }
                guard value >= 0 else {
                    done = true
                    return
                }
                sink.total &+= value
            }
        })
    operatorCase(
        "pairwise", repose: { $0.pairwise().map { $0 &+ $1 } },
        baseline: { sink in
            var previous: Int?
            return { value in
                if let last = previous { sink.total &+= last &+ value }
                previous = value
            }
        })
    operatorCase(
        "removeDuplicates by key path", input: { Point(x: $0 >> 1, y: $0) },
        repose: { $0.removeDuplicates(by: \.x).map { $0.y } },
        baseline: { sink in
            var previous: Int?
            return { point in
                if previous == point.x { return }
                previous = point.x
                sink.total &+= point.y
            }
        })
    operatorCase(
        "handleEvents",
        repose: { signal in
            let seen = Sink()
            return signal.handleEvents(receiveOutput: { _ in seen.total &+= 1 })
        },
        baseline: { sink in
            let seen = Sink()
            let tap: (Int) -> Void = { _ in seen.total &+= 1 }
            return { value in
                tap(value)
                sink.total &+= value
            }
        })
}

/// Registers "<name> per send/Repose" and "<name> per send/Baseline": one operator on a signal of `Input` (the
/// iteration index made into an input outside the measured send), against a closure doing the same.
func operatorCase<Input>(
    _ name: String, input: @escaping (Int) -> Input, repose: @escaping (Signal<Input>) -> Signal<Int>,
    baseline: @escaping (Sink) -> (Input) -> Void
) {
    Benchmark("\(name) per send/Repose", configuration: configuration(.mega)) { benchmark in
        let source = SignalSource<Input>()
        let sink = Sink()
        let subscription = repose(source.signal).observe { sink.total &+= $0 }
        let inputs = (0..<1_024).map(input)
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations { source.send(inputs[index & 1_023]) }
        benchmark.stopMeasurement()
        blackHole(sink.total)
        subscription.cancel()
    }
    Benchmark("\(name) per send/Baseline", configuration: configuration(.mega)) { benchmark in
        let list = ClosureList<Input>()
        let sink = Sink()
        _ = list.add(baseline(sink))
        let inputs = (0..<1_024).map(input)
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations { list.send(inputs[index & 1_023]) }
        benchmark.stopMeasurement()
        blackHole(sink.total)
    }
}

func operatorCase(
    _ name: String, repose: @escaping (Signal<Int>) -> Signal<Int>, baseline: @escaping (Sink) -> (Int) -> Void
) {
    operatorCase(name, input: { $0 }, repose: repose, baseline: baseline)
}

/// `zip`, `withLatestFrom`, `prefix` and `collect`, side by side with OpenCombine where it has them.
func combiningOperatorBenchmarks() {
    Benchmark("zip of 2 per send/Repose", configuration: configuration(.mega)) { benchmark in
        let first = SignalSource<Int>()
        let second = SignalSource<Int>()
        let sink = Sink()
        let subscription = first.signal.zip(second.signal).observe { sink.total &+= $0 &+ $1 }
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            if index & 1 == 0 { first.send(index) } else { second.send(index) }
        }
        benchmark.stopMeasurement()
        blackHole(sink.total)
        subscription.cancel()
    }
    Benchmark("zip of 2 per send/Baseline", configuration: configuration(.mega)) { benchmark in
        let first = ClosureList<Int>()
        let second = ClosureList<Int>()
        let sink = Sink()
        var waitingFirst: [Int] = []
        var waitingSecond: [Int] = []
        waitingFirst.reserveCapacity(4)
        waitingSecond.reserveCapacity(4)
        _ = first.add { value in
            if waitingSecond.isEmpty {
                waitingFirst.append(value)
            } else {
                sink.total &+= value &+ waitingSecond.removeFirst()
            }
        }
        _ = second.add { value in
            if waitingFirst.isEmpty {
                waitingSecond.append(value)
            } else {
                sink.total &+= waitingFirst.removeFirst() &+ value
            }
        }
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            if index & 1 == 0 { first.send(index) } else { second.send(index) }
        }
        benchmark.stopMeasurement()
        blackHole(sink.total)
    }
    Benchmark("zip of 2 per send/OpenCombine", configuration: configuration(.kilo)) { benchmark in
        let first = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<Int, Never>()
        let sink = Sink()
        let cancellable = first.zip(second).sink { sink.total &+= $0 &+ $1 }
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            if index & 1 == 0 { first.send(index) } else { second.send(index) }
        }
        benchmark.stopMeasurement()
        blackHole(sink.total)
        cancellable.cancel()
    }

    Benchmark("withLatestFrom per trigger/Repose", configuration: configuration(.mega)) { benchmark in
        let trigger = SignalSource<Int>()
        let other = SignalSource<Int>()
        let sink = Sink()
        let subscription = trigger.signal.withLatestFrom(other.signal).observe { sink.total &+= $0 &+ $1 }
        other.send(1)
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations { trigger.send(index) }
        benchmark.stopMeasurement()
        blackHole(sink.total)
        subscription.cancel()
    }
    Benchmark("withLatestFrom per trigger/Baseline", configuration: configuration(.mega)) { benchmark in
        let trigger = ClosureList<Int>()
        let other = ClosureList<Int>()
        let sink = Sink()
        var latest: Int?
        _ = other.add { latest = $0 }
        _ = trigger.add { value in
            if let latest { sink.total &+= value &+ latest }
        }
        other.send(1)
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations { trigger.send(index) }
        benchmark.stopMeasurement()
        blackHole(sink.total)
    }
    // OpenCombine 0.14 has no withLatestFrom (Combine has none either), so this case has no OpenCombine column.

    Benchmark("prefix (running) per send/OpenCombine", configuration: configuration(.kilo)) { benchmark in
        let subject = PassthroughSubject<Int, Never>()
        let sink = Sink()
        let cancellable = subject.prefix(.max - 1).sink { sink.total &+= $0 }
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations { subject.send(index) }
        benchmark.stopMeasurement()
        blackHole(sink.total)
        cancellable.cancel()
    }

    for (name, count) in [("collect count 10", 10)] {
        Benchmark("\(name) per send/Repose", configuration: configuration(.mega)) { benchmark in
            let source = SignalSource<Int>()
            let sink = Sink()
            let subscription = source.signal.collect(count: count).observe { sink.total &+= $0.count }
            benchmark.startMeasurement()
            for index in benchmark.scaledIterations { source.send(index) }
            benchmark.stopMeasurement()
            blackHole(sink.total)
            subscription.cancel()
        }
        Benchmark("\(name) per send/Baseline", configuration: configuration(.mega)) { benchmark in
            let list = ClosureList<Int>()
            let sink = Sink()
            var collected: [Int] = []
            _ = list.add { value in
                if collected.isEmpty { collected.reserveCapacity(count) }
                collected.append(value)
                if collected.count == count {
                    var values: [Int] = []
                    swap(&values, &collected)
                    sink.total &+= values.count
                }
            }
            benchmark.startMeasurement()
            for index in benchmark.scaledIterations { list.send(index) }
            benchmark.stopMeasurement()
            blackHole(sink.total)
        }
        Benchmark("\(name) per send/OpenCombine", configuration: configuration(.kilo)) { benchmark in
            let subject = PassthroughSubject<Int, Never>()
            let sink = Sink()
            let cancellable = subject.collect(count).sink { sink.total &+= $0.count }
            benchmark.startMeasurement()
            for index in benchmark.scaledIterations { subject.send(index) }
            benchmark.stopMeasurement()
            blackHole(sink.total)
            cancellable.cancel()
        }
    }
}
