import Benchmark
import Dispatch
import Foundation
import OpenCombine
import OpenCombineDispatch
import ReposeSignals

// Each case runs three ways side by side: Repose signals, a hand-written array of closures (Baseline) and
// OpenCombine. Figures are per inner iteration (marked * in the output): per send, per delivery, per
// subscribe-and-cancel, per input, per subscription or per cancel, as each name says.

let timeAndMallocs: [BenchmarkMetric] = [.wallClock, .mallocCountTotal, .throughput]

/// `REPOSE_BENCHMARK_SMOKE=1` (set by `smoke.sh`) runs each case only briefly: a check that everything runs.
let isSmokeRun = ProcessInfo.processInfo.environment["REPOSE_BENCHMARK_SMOKE"] != nil

func configuration(
    _ scale: BenchmarkScalingFactor, metrics: [BenchmarkMetric] = timeAndMallocs
)
    -> Benchmark.Configuration
{
    .init(
        metrics: metrics, timeUnits: .nanoseconds, scalingFactor: scale,
        maxDuration: isSmokeRun ? .milliseconds(10) : .seconds(1), maxIterations: isSmokeRun ? 2 : 100_000)
}

let benchmarks: @Sendable () -> Void = {
    sendBenchmarks()
    fanOutBenchmarks()
    chainBenchmarks()
    combineLatestBenchmarks()
    churnBenchmarks()
    debounceBenchmarks()
    memoryBenchmarks()
    manySubscriptionsBenchmarks()
    batchBenchmarks()
    statelessOperatorBenchmarks()
    combiningOperatorBenchmarks()
}

func sendBenchmarks() {
    Benchmark("Send 1 subscriber/Repose", configuration: configuration(.mega)) { benchmark in
        let source = SignalSource<Int>()
        let sink = Sink()
        let subscription = source.signal.observe { sink.total &+= $0 }
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations { source.send(index) }
        benchmark.stopMeasurement()
        blackHole(sink.total)
        subscription.cancel()
    }
    Benchmark("Send 1 subscriber owner form/Repose", configuration: configuration(.mega)) { benchmark in
        let source = SignalSource<Int>()
        let owner = Sink()
        source.signal.observe(owner: owner) { owner.total &+= $0 }
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations { source.send(index) }
        benchmark.stopMeasurement()
        blackHole(owner.total)
    }
    Benchmark("Send 1 subscriber owner-receiving form/Repose", configuration: configuration(.mega)) { benchmark in
        let source = SignalSource<Int>()
        let owner = Sink()
        source.signal.observe(owner: owner) { owner, value in owner.total &+= value }
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations { source.send(index) }
        benchmark.stopMeasurement()
        blackHole(owner.total)
    }
    Benchmark("Send 1 subscriber/Baseline", configuration: configuration(.mega)) { benchmark in
        let list = ClosureList<Int>()
        let sink = Sink()
        _ = list.add { sink.total &+= $0 }
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations { list.send(index) }
        benchmark.stopMeasurement()
        blackHole(sink.total)
    }
    Benchmark("Send 1 subscriber/OpenCombine", configuration: configuration(.mega)) { benchmark in
        let subject = PassthroughSubject<Int, Never>()
        let sink = Sink()
        let cancellable = subject.sink { sink.total &+= $0 }
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations { subject.send(index) }
        benchmark.stopMeasurement()
        blackHole(sink.total)
        cancellable.cancel()
    }
}

/// 1,000 subscribers; the scaled figure is per delivery (1,000 sends × 1,000 subscribers per iteration).
func fanOutBenchmarks() {
    let subscribers = 1_000
    Benchmark("Fan-out 1000 per delivery/Repose", configuration: configuration(.mega)) { benchmark in
        let source = SignalSource<Int>()
        let sink = Sink()
        let subscriptions = (0..<subscribers).map { _ in source.signal.observe { sink.total &+= $0 } }
        benchmark.startMeasurement()
        for index in 0..<(benchmark.scaledIterations.count / subscribers) { source.send(index) }
        benchmark.stopMeasurement()
        blackHole(sink.total)
        blackHole(subscriptions.count)
    }
    Benchmark("Fan-out 1000 per delivery/Baseline", configuration: configuration(.mega)) { benchmark in
        let list = ClosureList<Int>()
        let sink = Sink()
        for _ in 0..<subscribers { _ = list.add { sink.total &+= $0 } }
        benchmark.startMeasurement()
        for index in 0..<(benchmark.scaledIterations.count / subscribers) { list.send(index) }
        benchmark.stopMeasurement()
        blackHole(sink.total)
    }
    Benchmark("Fan-out 1000 per delivery/OpenCombine", configuration: configuration(.mega)) { benchmark in
        let subject = PassthroughSubject<Int, Never>()
        let sink = Sink()
        let cancellables = (0..<subscribers).map { _ in subject.sink { sink.total &+= $0 } }
        benchmark.startMeasurement()
        for index in 0..<(benchmark.scaledIterations.count / subscribers) { subject.send(index) }
        benchmark.stopMeasurement()
        blackHole(sink.total)
        blackHole(cancellables.count)
    }
}

func chainBenchmarks() {
    Benchmark("map.filter.map per send/Repose", configuration: configuration(.mega)) { benchmark in
        let source = SignalSource<Int>()
        let sink = Sink()
        let subscription = source.signal.map { $0 &+ 1 }.filter { $0 & 1 == 0 }.map { $0 &* 3 }
            .observe { sink.total &+= $0 }
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations { source.send(index) }
        benchmark.stopMeasurement()
        blackHole(sink.total)
        subscription.cancel()
    }
    Benchmark("map.filter.map per send/Baseline", configuration: configuration(.mega)) { benchmark in
        let list = ClosureList<Int>()
        let sink = Sink()
        let transform: (Int) -> Int = { $0 &+ 1 }
        let isIncluded: (Int) -> Bool = { $0 & 1 == 0 }
        let finish: (Int) -> Int = { $0 &* 3 }
        _ = list.add { value in
            let first = transform(value)
            if isIncluded(first) { sink.total &+= finish(first) }
        }
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations { list.send(index) }
        benchmark.stopMeasurement()
        blackHole(sink.total)
    }
    Benchmark("map.filter.map per send/OpenCombine", configuration: configuration(.mega)) { benchmark in
        let subject = PassthroughSubject<Int, Never>()
        let sink = Sink()
        let cancellable = subject.map { $0 &+ 1 }.filter { $0 & 1 == 0 }.map { $0 &* 3 }
            .sink { sink.total &+= $0 }
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations { subject.send(index) }
        benchmark.stopMeasurement()
        blackHole(sink.total)
        cancellable.cancel()
    }
}

func combineLatestBenchmarks() {
    Benchmark("combineLatest per update/Repose", configuration: configuration(.mega)) { benchmark in
        let first = SignalSource<Int>()
        let second = SignalSource<Int>()
        let sink = Sink()
        let subscription = first.signal.combineLatest(second.signal).observe { sink.total &+= $0 &+ $1 }
        second.send(0)
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            if index & 1 == 0 { first.send(index) } else { second.send(index) }
        }
        benchmark.stopMeasurement()
        blackHole(sink.total)
        subscription.cancel()
    }
    Benchmark("combineLatest per update/Baseline", configuration: configuration(.mega)) { benchmark in
        let first = ClosureList<Int>()
        let second = ClosureList<Int>()
        let sink = Sink()
        var latest: (Int?, Int?) = (nil, 0)
        let emit = {
            if let a = latest.0, let b = latest.1 { sink.total &+= a &+ b }
        }
        _ = first.add { value in
            latest.0 = value
            emit()
        }
        _ = second.add { value in
            latest.1 = value
            emit()
        }
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            if index & 1 == 0 { first.send(index) } else { second.send(index) }
        }
        benchmark.stopMeasurement()
        blackHole(sink.total)
    }
    // OpenCombine 0.14 has no combineLatest (nor merge), so this case has no OpenCombine column.
}

/// One subscribe followed by its cancel, on a signal that already has one observer.
func churnBenchmarks() {
    Benchmark("Subscribe+cancel/Repose", configuration: configuration(.kilo)) { benchmark in
        let source = SignalSource<Int>()
        let sink = Sink()
        let keep = source.signal.observe { sink.total &+= $0 }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let subscription = source.signal.observe { sink.total &+= $0 }
            subscription.cancel()
        }
        benchmark.stopMeasurement()
        keep.cancel()
    }
    Benchmark("Subscribe+cancel owner form/Repose", configuration: configuration(.kilo)) { benchmark in
        let source = SignalSource<Int>()
        let sink = Sink()
        let owner = Sink()
        let keep = source.signal.observe { sink.total &+= $0 }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            source.signal.observe(owner: owner) { sink.total &+= $0 }.cancel()
        }
        benchmark.stopMeasurement()
        keep.cancel()
    }
    Benchmark("Subscribe+cancel owner-receiving form/Repose", configuration: configuration(.kilo)) { benchmark in
        let source = SignalSource<Int>()
        let sink = Sink()
        let owner = Sink()
        let keep = source.signal.observe { sink.total &+= $0 }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            source.signal.observe(owner: owner) { owner, value in owner.total &+= value }.cancel()
        }
        benchmark.stopMeasurement()
        keep.cancel()
    }
    Benchmark("Subscribe+cancel/Baseline", configuration: configuration(.kilo)) { benchmark in
        let list = ClosureList<Int>()
        let sink = Sink()
        _ = list.add { sink.total &+= $0 }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let id = list.add { sink.total &+= $0 }
            list.remove(id)
        }
        benchmark.stopMeasurement()
    }
    Benchmark("Subscribe+cancel/OpenCombine", configuration: configuration(.kilo)) { benchmark in
        let subject = PassthroughSubject<Int, Never>()
        let sink = Sink()
        let keep = subject.sink { sink.total &+= $0 }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let cancellable = subject.sink { sink.total &+= $0 }
            cancellable.cancel()
        }
        benchmark.stopMeasurement()
        keep.cancel()
    }
}

/// Inputs arriving in one burst (the interval never passes during the measurement).
func debounceBenchmarks() {
    Benchmark("Debounce input in a burst/Repose MainScheduler", configuration: configuration(.mega)) { benchmark in
        let source = SignalSource<Int>()
        let sink = Sink()
        let subscription = source.signal.debounce(for: .seconds(3_600), scheduler: MainScheduler())
            .observe { sink.total &+= $0 }
        source.send(0)
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations { source.send(index) }
        benchmark.stopMeasurement()
        subscription.cancel()
    }
    Benchmark("Debounce input in a burst/Repose TestScheduler", configuration: configuration(.mega)) { benchmark in
        let source = SignalSource<Int>()
        let sink = Sink()
        let subscription = source.signal.debounce(for: .seconds(1), scheduler: TestScheduler())
            .observe { sink.total &+= $0 }
        source.send(0)
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations { source.send(index) }
        benchmark.stopMeasurement()
        subscription.cancel()
    }
    Benchmark("Debounce input in a burst/Baseline", configuration: configuration(.mega)) { benchmark in
        let list = ClosureList<Int>()
        let debounce = ManualDebounce<Int>(interval: .seconds(3_600))
        _ = list.add { debounce.receive($0) }
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations { list.send(index) }
        benchmark.stopMeasurement()
        blackHole(debounce.pending)
    }
    Benchmark("Debounce input in a burst/OpenCombine", configuration: configuration(.kilo)) { benchmark in
        let subject = PassthroughSubject<Int, Never>()
        let sink = Sink()
        let queue = DispatchQueue(label: "debounce")
        let cancellable = subject.debounce(for: .seconds(3_600), scheduler: queue.ocombine)
            .sink { sink.total &+= $0 }
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations { subject.send(index) }
        benchmark.stopMeasurement()
        cancellable.cancel()
    }
}

/// Bytes allocated per live subscription (1,000 subscriptions per iteration, kept until measured).
func memoryBenchmarks() {
    let metrics: [BenchmarkMetric] = [.mallocBytesCount, .mallocCountTotal]
    Benchmark("Memory per subscription/Repose", configuration: configuration(.kilo, metrics: metrics)) { benchmark in
        let source = SignalSource<Int>()
        let sink = Sink()
        var subscriptions: [ReposeSignals.Subscription] = []
        subscriptions.reserveCapacity(benchmark.scaledIterations.count)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { subscriptions.append(source.signal.observe { sink.total &+= $0 }) }
        benchmark.stopMeasurement()
        blackHole(subscriptions.count)
    }
    Benchmark("Memory per subscription owner form/Repose", configuration: configuration(.kilo, metrics: metrics)) {
        benchmark in
        let source = SignalSource<Int>()
        let sink = Sink()
        let owner = Sink()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { source.signal.observe(owner: owner) { sink.total &+= $0 } }
        benchmark.stopMeasurement()
        blackHole(source)
    }
    Benchmark(
        "Memory per subscription owner-receiving form/Repose", configuration: configuration(.kilo, metrics: metrics)
    ) { benchmark in
        let source = SignalSource<Int>()
        let owner = Sink()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            source.signal.observe(owner: owner) { owner, value in owner.total &+= value }
        }
        benchmark.stopMeasurement()
        blackHole(source)
    }
    Benchmark("Memory per subscription/Baseline", configuration: configuration(.kilo, metrics: metrics)) { benchmark in
        let list = ClosureList<Int>()
        let sink = Sink()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { _ = list.add { sink.total &+= $0 } }
        benchmark.stopMeasurement()
        blackHole(list)
    }
    Benchmark("Memory per subscription/OpenCombine", configuration: configuration(.kilo, metrics: metrics)) {
        benchmark in
        let subject = PassthroughSubject<Int, Never>()
        let sink = Sink()
        var cancellables: [AnyCancellable] = []
        cancellables.reserveCapacity(benchmark.scaledIterations.count)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { cancellables.append(subject.sink { sink.total &+= $0 }) }
        benchmark.stopMeasurement()
        blackHole(cancellables.count)
    }
}

/// Creates `count` subscriptions, then measures cancelling 1,000 of them chosen at random, in random order; the
/// figure is per cancel. A cost that does not grow with `count` means cancelling does not scan the list.
func manySubscriptionsBenchmarks() {
    for count in [1_000, 10_000, 100_000] {
        let scale = BenchmarkScalingFactor.kilo
        let order = Array(Array(0..<count).shuffled().prefix(scale.rawValue))
        Benchmark("Cancel 1 of \(count) in random order/Repose", configuration: configuration(scale)) { benchmark in
            let source = SignalSource<Int>()
            let sink = Sink()
            let subscriptions = (0..<count).map { _ in source.signal.observe { sink.total &+= $0 } }
            benchmark.startMeasurement()
            for index in order { subscriptions[index].cancel() }
            benchmark.stopMeasurement()
            // Keeps the remaining subscriptions (and their release) out of the measured region.
            withExtendedLifetime((source, subscriptions)) {}
        }
        Benchmark("Cancel 1 of \(count) in random order/Baseline", configuration: configuration(scale)) { benchmark in
            let list = ClosureList<Int>()
            let sink = Sink()
            let ids = (0..<count).map { _ in list.add { sink.total &+= $0 } }
            benchmark.startMeasurement()
            for index in order { list.remove(ids[index]) }
            benchmark.stopMeasurement()
            withExtendedLifetime(list) {}
        }
        Benchmark("Cancel 1 of \(count) in random order/OpenCombine", configuration: configuration(scale)) {
            benchmark in
            let subject = PassthroughSubject<Int, Never>()
            let sink = Sink()
            let cancellables = (0..<count).map { _ in subject.sink { sink.total &+= $0 } }
            benchmark.startMeasurement()
            for index in order { cancellables[index].cancel() }
            benchmark.stopMeasurement()
            withExtendedLifetime((subject, cancellables)) {}
        }
    }
}

/// 10,000 subscriptions created, then all cancelled in a shuffled order; the figure is per batch of 10,000.
func batchBenchmarks() {
    let count = 10_000
    let order = Array(0..<count).shuffled()
    Benchmark("Create and cancel 10000 in random order (per batch)/Repose", configuration: configuration(.one)) {
        benchmark in
        let source = SignalSource<Int>()
        let sink = Sink()
        benchmark.startMeasurement()
        let subscriptions = (0..<count).map { _ in source.signal.observe { sink.total &+= $0 } }
        for index in order { subscriptions[index].cancel() }
        benchmark.stopMeasurement()
        withExtendedLifetime((source, subscriptions)) {}
    }
    Benchmark("Create and cancel 10000 in random order (per batch)/Baseline", configuration: configuration(.one)) {
        benchmark in
        let list = ClosureList<Int>()
        let sink = Sink()
        benchmark.startMeasurement()
        let ids = (0..<count).map { _ in list.add { sink.total &+= $0 } }
        for index in order { list.remove(ids[index]) }
        benchmark.stopMeasurement()
        withExtendedLifetime(list) {}
    }
    Benchmark("Create and cancel 10000 in random order (per batch)/OpenCombine", configuration: configuration(.one)) {
        benchmark in
        let subject = PassthroughSubject<Int, Never>()
        let sink = Sink()
        benchmark.startMeasurement()
        let cancellables = (0..<count).map { _ in subject.sink { sink.total &+= $0 } }
        for index in order { cancellables[index].cancel() }
        benchmark.stopMeasurement()
        withExtendedLifetime((subject, cancellables)) {}
    }
}
