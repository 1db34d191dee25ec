import Benchmark
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `REPOSE_BENCHMARK_SMOKE=1` (set by `smoke.sh`) runs each case only briefly: a check of the allocation counts.
let isSmokeRun = ProcessInfo.processInfo.environment["REPOSE_BENCHMARK_SMOKE"] != nil

let timeAndMallocs: [BenchmarkMetric] = [.wallClock, .mallocCountTotal, .throughput]

func configuration(
    _ scale: BenchmarkScalingFactor, metrics: [BenchmarkMetric] = timeAndMallocs, seconds: Int = 1
)
    -> Benchmark.Configuration
{
    .init(
        metrics: metrics, timeUnits: .nanoseconds, scalingFactor: scale,
        maxDuration: isSmokeRun ? .milliseconds(10) : .seconds(seconds), maxIterations: isSmokeRun ? 3 : 100_000)
}

/// The runner's benchmark object, handed to main-actor code.
///
/// `@unchecked Sendable`: the runner waits for the benchmark closure to finish and the closure touches the object
/// from one task at a time (first here, then on the main actor), so it is never used concurrently.
struct Measured: @unchecked Sendable {
    let benchmark: Benchmark

    var iterations: Range<Int> { 0..<benchmark.scaledIterations.count }

    func start() { benchmark.startMeasurement() }
    func stop() { benchmark.stopMeasurement() }
    func record(_ metric: BenchmarkMetric, _ value: Int) { benchmark.measurement(metric, value) }
}

/// Registers a benchmark whose body runs on the main actor, where `Service` and `Resource` live.
///
/// The body starts and stops the measurement itself, so the hop to the main actor is not measured.
func mainActorBenchmark(
    _ name: String, _ configuration: Benchmark.Configuration, _ body: @escaping @MainActor (Measured) async -> Void
) {
    Benchmark(name, configuration: configuration) { benchmark async in
        await body(Measured(benchmark: benchmark))
    }
}

/// The process's resident memory in bytes, from `/proc/self/statm` (0 where that is unavailable).
///
/// glibc's `mallinfo2` would be more precise, but the Glibc module does not export it. Resident memory grows with
/// every page that fresh allocations touch, so over 100,000 resources it measures their cost to within a few pages.
func residentBytes() -> Int {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = statm.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

let bytesPerResource = BenchmarkMetric.custom("Bytes per resource", polarity: .prefersSmaller, useScalingFactor: false)
let mainActorNanoseconds = BenchmarkMetric.custom(
    "Main-actor time (ns)", polarity: .prefersSmaller, useScalingFactor: false)
