// repose-demo: a terminal client for a GitHub-like API that shows what Repose does. Interactive from a terminal,
// a scripted tour otherwise; on an embedded fixture API unless given --base-url. See `swift run repose-demo --help`.
import Foundation
import Repose

let options: DemoOptions
switch DemoOptions.parse(Array(CommandLine.arguments.dropFirst())) {
case .success(let parsed):
    options = parsed
case .failure(let error):
    FileHandle.standardError.write(Data("repose-demo: \(error.message)\n\n\(DemoOptions.usage)\n".utf8))
    exit(2)
}
if options.showsHelp {
    print(DemoOptions.usage)
    exit(0)
}

// The tour plays on the embedded fixture, with short latencies; commands from a terminal (or, for a live API, from
// standard input) use the setup asked for.
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
    print("Standard input is not a terminal, so this is the scripted tour; run it from a terminal to type commands.")
    exit(await Tour(setup: setup).play() ? 0 : 1)
} else {
    await Interactive(setup: setup, startsCold: options.startsCold).run()
}
