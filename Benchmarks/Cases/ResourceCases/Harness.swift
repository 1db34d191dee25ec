import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The resource layer's cases, written once and run by two drivers: `ResourceBenchmarks` (ordo-one/benchmark's
// runner, where every body runs inside the runner's task) and `AppLikeBenchmarks` (the process's main thread, driven
// by its run loop, where each measured region runs in a main-queue block outside any task, as an app's code runs).

/// `REPOSE_BENCHMARK_SMOKE=1` (set by `smoke.sh`) runs each case only briefly: a check of the allocation counts.
public let isSmokeRun = ProcessInfo.processInfo.environment["REPOSE_BENCHMARK_SMOKE"] != nil

/// How many inner iterations one sample of a case makes; figures are reported per inner iteration.
public enum Scale: Int, Sendable {
    case one = 1
    case kilo = 1_000
    case mega = 1_000_000
}

/// A figure a case records itself, besides time and mallocs (its median over the samples is reported).
public struct CustomMetric: Hashable, Sendable {
    public let name: String
}

/// How a case is run: its scale, how long to sample it, and the figures it records itself.
public struct CaseConfiguration: Sendable {
    public let scale: Scale
    public let metrics: [CustomMetric]
    public let seconds: Int
}

func configuration(_ scale: Scale, metrics: [CustomMetric] = [], seconds: Int = 1) -> CaseConfiguration {
    CaseConfiguration(scale: scale, metrics: metrics, seconds: seconds)
}

/// One benchmark case: a name, how it is run, and its body, which does its setup and hands its measured region to
/// ``Measured``.
public struct BenchmarkCase: Sendable {
    public let name: String
    public let configuration: CaseConfiguration
    public let body: @MainActor @Sendable (Measured) async -> Void
}

/// The cases registered so far. `@unchecked Sendable`: `lock` guards `cases`.
private final class Registry: @unchecked Sendable {
    let lock = NSLock()
    var cases: [BenchmarkCase] = []
}

private let registry = Registry()

/// Registers a case; its body runs on the main actor, where `Service` and `Resource` live.
func mainActorBenchmark(
    _ name: String, _ configuration: CaseConfiguration, _ body: @escaping @MainActor @Sendable (Measured) async -> Void
) {
    let registered = BenchmarkCase(name: name, configuration: configuration, body: body)
    registry.lock.withLock { registry.cases.append(registered) }
}

/// What one sample of a case measures, and where: the driver decides how a measured region runs.
///
/// A body calls one of the `run` methods once per sample. The region between the driver's start and stop is what
/// is measured; everything else in the body is setup.
@MainActor
public final class Measured {
    /// How the measured region runs.
    public enum Mode: Sendable {
        /// Directly in the calling task (the ordo-one runner's task): main-actor checks take their fast path.
        case inTask
        /// In a block on the main queue, outside any task, as code an app runs from its run loop.
        case appLike
    }

    public let iterations: Range<Int>
    private let mode: Mode
    private let begin: @MainActor () -> Void
    private let end: @MainActor () -> Void
    private let recorder: @MainActor (CustomMetric, Int) -> Void

    public init(
        iterations: Int, mode: Mode, start: @escaping @MainActor () -> Void, stop: @escaping @MainActor () -> Void,
        record: @escaping @MainActor (CustomMetric, Int) -> Void
    ) {
        self.iterations = 0..<iterations
        self.mode = mode
        begin = start
        end = stop
        recorder = record
    }

    /// Records a figure of the case's own.
    func record(_ metric: CustomMetric, _ value: Int) { recorder(metric, value) }

    /// Measures `work`, which runs synchronously on the main actor.
    func run(_ work: @escaping @MainActor () -> Void) async {
        await run { done in
            work()
            done()
        }
    }

    /// Measures from the start of `work` until it calls `done` (on the main actor), as an app's callbacks run: the
    /// stub provider and the network call back from main-queue blocks.
    func run(until work: @escaping @MainActor (_ done: @escaping @MainActor () -> Void) -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            // Made before the clock starts, so that the closure's allocation is not counted against the case.
            let finish: @MainActor () -> Void = { [self] in
                end()
                continuation.resume()
            }
            let region: @MainActor () -> Void = { [self] in
                begin()
                work(finish)
            }
            switch mode {
            case .inTask:
                region()
            case .appLike:
                let box = UncheckedBox(region)
                // Provably on the main thread: a block on the main queue, which the main thread's run loop drains.
                DispatchQueue.main.async { MainActor.assumeIsolated { box.value() } }
            }
        }
    }

    /// Measures `work`, which awaits: in the app-like mode, a task the region starts, as an app starts one from a
    /// button's action to await a load.
    func runTask(_ work: @escaping @MainActor () async -> Void) async {
        switch mode {
        case .inTask:
            begin()
            await work()
            end()
        case .appLike:
            await run { done in
                Task { @MainActor in
                    await work()
                    done()
                }
            }
        }
    }
}

/// Every resource-layer case, in the order they are reported.
public func resourceCases() -> [BenchmarkCase] {
    let registered = registry.lock.withLock { registry.cases }
    if !registered.isEmpty { return registered }
    lookupBenchmarks()
    loadIfNeededBenchmarks()
    observerBenchmarks()
    roundTripBenchmarks()
    memoryBenchmarks()
    largeBodyBenchmarks()
    scalingBenchmarks()
    loopbackBenchmarks()
    streamBenchmarks()
    slowReaderBenchmarks()
    cacheBenchmarks()
    listBenchmarks()
    retryBenchmarks()
    pollingBenchmarks()
    writeBenchmarks()
    eventStreamBenchmarks()
    outboxBenchmarks()
    limitBenchmarks()
    return registry.lock.withLock { registry.cases }
}

/// What the cases leave behind: the loopback server (waited for, unless `waitingForServer` is false: on the main
/// thread, waiting spins its run loop) and the cache folders.
@MainActor
public func tearDownResourceCases(waitingForServer: Bool = true) {
    LoopbackServer.shared.stop(waiting: waitingForServer)
    removeEvictionFolders()
}

/// Keeps a value alive and opaque to the optimiser, so that the work producing it cannot be dropped.
@inline(never)
public func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
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

/// Live heap bytes: glibc's `mallinfo2()` (in-use chunks plus mmapped ones), which counts exactly what is allocated
/// and not yet freed, where resident memory also moves with what the allocator reuses or keeps. Looked up at run time
/// (the Glibc module does not export it) and called the way x86-64 System V returns its 10-word struct, through a
/// hidden pointer. Elsewhere, resident memory.
func allocatedBytes() -> Int {
    #if canImport(Glibc) && arch(x86_64)
    typealias MallInfo2 = @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer
    guard let symbol = dlsym(dlopen(nil, RTLD_LAZY), "mallinfo2") else { return residentBytes() }
    let fields = UnsafeMutablePointer<Int>.allocate(capacity: 10)
    defer { fields.deallocate() }
    fields.initialize(repeating: 0, count: 10)
    _ = unsafeBitCast(symbol, to: MallInfo2.self)(UnsafeMutableRawPointer(fields))
    return fields[7] + fields[4]  // uordblks + hblkhd
    #else
    return residentBytes()
    #endif
}

let bytesPerResource = CustomMetric(name: "Bytes per resource")
let residentBytesPerResource = CustomMetric(name: "Resident bytes per resource")
let nanosecondsPerResource = CustomMetric(name: "Time per resource (ns)")
let mainActorNanoseconds = CustomMetric(name: "Main-actor time (ns)")

/// Carries a value that is not `Sendable` across one hand-off whose two sides never touch it at once.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
