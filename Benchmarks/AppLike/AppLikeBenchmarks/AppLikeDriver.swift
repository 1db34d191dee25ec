import Dispatch
import Foundation
import ResourceCases

#if canImport(MallocInterposerSwift)
import MallocInterposerSwift
#endif

/// The command line: `--filter REGEX`, `--seconds S` (the longest a case samples; its own setting when shorter),
/// `--json FILE`, `--dispatch-main`, and `--in-task`, which runs the measured regions in the driver's task instead
/// (on the main thread, like the ordo-one runner's in-task figures), for A/B comparisons in one binary.
struct AppLikeOptions {
    var filter: String?
    var seconds: Double?
    var jsonPath: String?
    var usesDispatchMain = false
    var inTask = false

    init(_ arguments: ArraySlice<String>) {
        var rest = arguments.makeIterator()
        while let argument = rest.next() {
            switch argument {
            case "--filter": filter = rest.next()
            case "--seconds": seconds = rest.next().flatMap(Double.init)
            case "--json": jsonPath = rest.next()
            case "--dispatch-main": usesDispatchMain = true
            case "--in-task": inTask = true
            default:
                FileHandle.standardError.write(Data("AppLikeBenchmarks: unknown argument \(argument)\n".utf8))
                exit(2)
            }
        }
    }
}

/// The samples of one case.
struct CaseResult {
    let name: String
    let scale: Int
    var nanoseconds: [Int] = []
    var mallocs: [Int] = []
    var custom: [String: [Int]] = [:]
    var customOrder: [String] = []
}

/// Runs the cases one after another from its task, each sample's measured region in a main-queue block.
@MainActor
final class AppLikeDriver {
    let options: AppLikeOptions

    init(options: AppLikeOptions) {
        self.options = options
    }

    func runAll() async -> AppLikeReport {
        let pattern = options.filter.flatMap { try? NSRegularExpression(pattern: $0) }
        let mode = options.usesDispatchMain ? "dispatchMain()" : "RunLoop.main"
        let regions = options.inTask ? "in the driver's task" : "outside any task"
        print("AppLikeBenchmarks: main thread driven by \(mode), measured regions \(regions)")
        print(Mallocs.isCounting ? "mallocs: counted by the malloc interposer" : "mallocs: not counted")
        print(AppLikeReport.header)
        var report = AppLikeReport()
        for resourceCase in resourceCases() {
            let name = resourceCase.name
            if let pattern,
                pattern.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)) == nil
            {
                continue
            }
            let result = await run(resourceCase)
            print(AppLikeReport.row(result))
            report.results.append(result)
        }
        return report
    }

    private func run(_ resourceCase: BenchmarkCase) async -> CaseResult {
        let settings = resourceCase.configuration
        var result = CaseResult(name: resourceCase.name, scale: settings.scale.rawValue)
        let seconds = isSmokeRun ? 0.01 : min(Double(settings.seconds), options.seconds ?? .infinity)
        let maximumSamples = isSmokeRun ? 3 : 100_000
        // One unrecorded sample first, as the ordo-one runner warms up: first-use costs are not the steady state.
        if !isSmokeRun {
            var warmUp: CaseResult?
            await sample(resourceCase, into: &warmUp)
        }
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        repeat {
            await sample(resourceCase, into: &result)
        } while result.nanoseconds.count < maximumSamples && DispatchTime.now().uptimeNanoseconds < deadline
        return result
    }

    private func sample(_ resourceCase: BenchmarkCase, into result: inout CaseResult) async {
        var recorded: CaseResult? = result
        await sample(resourceCase, into: &recorded)
        if let recorded { result = recorded }
    }

    private func sample(_ resourceCase: BenchmarkCase, into result: inout CaseResult?) async {
        var started: UInt64 = 0
        var elapsed: UInt64 = 0
        var mallocsAtStart = 0
        var mallocs = 0
        var custom: [(String, Int)] = []
        let measured = Measured(
            iterations: resourceCase.configuration.scale.rawValue, mode: options.inTask ? .inTask : .appLike,
            start: {
                mallocsAtStart = Mallocs.count
                started = DispatchTime.now().uptimeNanoseconds
            },
            stop: {
                elapsed = DispatchTime.now().uptimeNanoseconds - started
                mallocs = Mallocs.count - mallocsAtStart
            },
            record: { metric, value in custom.append((metric.name, value)) })
        await resourceCase.body(measured)
        guard result != nil else { return }
        result?.nanoseconds.append(Int(elapsed))
        result?.mallocs.append(mallocs)
        for (name, value) in custom {
            if result?.custom[name] == nil { result?.customOrder.append(name) }
            result?.custom[name, default: []].append(value)
        }
    }
}

/// Allocation counts from ordo-one's malloc interposer, which the `Benchmark` library links in.
enum Mallocs {
    #if canImport(MallocInterposerSwift)
    static let isCounting: Bool = {
        MallocInterposerSwift.initialize()
        MallocInterposerSwift.hook()
        return true
    }()
    static var count: Int {
        guard isCounting else { return 0 }
        return Int(MallocInterposerSwift.getStatistics().mallocCount)
    }
    #else
    static let isCounting = false
    static var count: Int { 0 }
    #endif
}
