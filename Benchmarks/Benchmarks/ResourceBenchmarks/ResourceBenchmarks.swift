import Benchmark
import ResourceCases

// The resource layer's cases (Benchmarks/Cases/ResourceCases) under ordo-one/benchmark's runner: every body runs in
// the runner's task, on the main actor. `AppLikeBenchmarks` runs the same cases on the process's main thread,
// outside any task, as an app runs them.

let benchmarks: @Sendable () -> Void = {
    for resourceCase in resourceCases() {
        let settings = resourceCase.configuration
        let custom = settings.metrics.map {
            BenchmarkMetric.custom($0.name, polarity: .prefersSmaller, useScalingFactor: false)
        }
        let configuration = Benchmark.Configuration(
            metrics: [.wallClock, .mallocCountTotal, .throughput] + custom, timeUnits: .nanoseconds,
            scalingFactor: scalingFactor(settings.scale),
            maxDuration: isSmokeRun ? .milliseconds(10) : .seconds(settings.seconds),
            maxIterations: isSmokeRun ? 3 : 100_000)
        Benchmark(resourceCase.name, configuration: configuration) { benchmark async in
            let runner = Runner(benchmark: benchmark)
            await resourceCase.body(
                await Measured(
                    iterations: benchmark.scaledIterations.count, mode: .inTask, start: runner.start,
                    stop: runner.stop, record: runner.record))
        }
    }
    Benchmark.teardown = {
        await tearDownResourceCases()
    }
}

private func scalingFactor(_ scale: Scale) -> BenchmarkScalingFactor {
    switch scale {
    case .one: .one
    case .kilo: .kilo
    case .mega: .mega
    }
}

/// The runner's benchmark object, handed to main-actor code.
///
/// `@unchecked Sendable`: the runner waits for the benchmark closure to finish and the closure touches the object
/// from one task at a time (first here, then on the main actor), so it is never used concurrently.
private struct Runner: @unchecked Sendable {
    let benchmark: Benchmark

    func start() { benchmark.startMeasurement() }
    func stop() { benchmark.stopMeasurement() }

    /// Records a case's own figure. The runner's histograms hold no negative values; a negative difference is
    /// recorded as 0, which leaves every percentile at or above 0 unchanged.
    func record(_ metric: CustomMetric, _ value: Int) {
        benchmark.measurement(
            .custom(metric.name, polarity: .prefersSmaller, useScalingFactor: false), max(value, 0))
    }
}
