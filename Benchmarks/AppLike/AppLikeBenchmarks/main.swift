import Dispatch
import Foundation
import ResourceCases

// The resource layer's cases run as an app runs them: on the process's main thread, driven by its run loop (or by
// `dispatchMain()` with `--dispatch-main`), each measured region in a main-queue block outside any task. The
// ordo-one runner (`ResourceBenchmarks`) runs the same cases inside its task, where main-actor checks take their
// fast path; apps never do.
//
//   swift run --disable-sandbox -c release AppLikeBenchmarks [--filter REGEX] [--seconds S] [--json FILE] [--dispatch-main] [--in-task]
//
// Prints one row per case: samples, p0 and p50 of the time per inner iteration, mallocs per inner iteration (p50),
// and the case's own figures (p50). `--json` writes the allocation counts per sample in the shape of ordo-one's JMH
// export, for `check-mallocs.py`. `REPOSE_BENCHMARK_SMOKE=1` runs each case briefly, as `smoke.sh` does.

let options = AppLikeOptions(CommandLine.arguments.dropFirst())

// Not `await`: top-level code that awaits would make `main` itself a task. The driver's task only sequences the
// cases; every measured region leaves it for a main-queue block (see `Measured`).
Task { @MainActor in
    let report = await AppLikeDriver(options: options).runAll()
    if let path = options.jsonPath {
        _ = FileManager.default.createFile(atPath: path, contents: Data(report.jmhJSON().utf8))
    }
    tearDownResourceCases(waitingForServer: false)  // the server exits when its standard input closes
    exit(0)
}

if options.usesDispatchMain {
    dispatchMain()
} else {
    RunLoop.main.run()
}
