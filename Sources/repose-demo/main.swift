// repose-demo: a terminal client for a GitHub-like API that shows what Repose does. Interactive from a terminal,
// a scripted tour otherwise; on an embedded fixture API unless given --base-url. See `swift run repose-demo --help`.
import Foundation
import Repose

/// Runs the demo as `arguments` ask; returns the exit status.
///
/// A function, not top-level code: what it makes is freed when it returns, before the process exits. Values held by
/// an async main's top-level code are never freed, and LeakSanitizer reports them when a test runs the demo.
@MainActor
func runDemo(_ arguments: [String]) async -> Int32 {
    let options: DemoOptions
    switch DemoOptions.parse(arguments) {
    case .success(let parsed):
        options = parsed
    case .failure(let error):
        FileHandle.standardError.write(Data("repose-demo: \(error.message)\n\n\(DemoOptions.usage)\n".utf8))
        return 2
    }
    if options.showsHelp {
        print(DemoOptions.usage)
        return 0
    }

    // The tour plays on the embedded fixture, with short latencies; commands from a terminal (or, for a live API,
    // from standard input) use the setup asked for.
    let playsTour = options.runsTour || (!Terminal.isInteractive && options.baseURL == nil)
    var setup: DemoSetup
    if let baseURL = options.baseURL, !playsTour {
        setup = .live(baseURL: baseURL, token: options.token, login: options.login)
    } else {
        setup = .fixture(timing: playsTour ? .tour : .interactive, login: options.login)
    }
    if playsTour {
        setup.searchPause = .milliseconds(200)
        setup.keystrokeInterval = .milliseconds(40)
    }
    let api = setup.fixture == nil ? setup.baseURL : "the embedded fixture API (no network)"
    print("Repose demo: a client for a GitHub-like API, on \(api)")

    if playsTour {
        print(
            "Standard input is not a terminal, so this is the scripted tour; run it from a terminal to type commands.")
        return await Tour(setup: setup).play() ? 0 : 1
    }
    await Interactive(setup: setup, startsCold: options.startsCold).run()
    return 0
}

exit(await runDemo(Array(CommandLine.arguments.dropFirst())))
