// repose-demo: a small client that shows what Repose does, on an embedded fixture API by default.
//
//     swift run repose-demo                                  # the embedded fixture API, no network
//     swift run repose-demo --base-url https://api.github.com --user octocat
import Foundation
import Repose

let arguments = CommandLine.arguments.dropFirst()
if arguments.contains("--help") || arguments.contains("-h") {
    print(
        """
        usage: repose-demo [--base-url URL] [--user LOGIN]
          --base-url URL  talk to a real GitHub-compatible API instead of the embedded fixture
          --user LOGIN    whose profile to show (default: ada on the fixture, octocat elsewhere)
        """)
    exit(0)
}

func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), arguments.index(after: index) < arguments.endIndex else {
        return nil
    }
    return arguments[arguments.index(after: index)]
}

let realBaseURL = option("--base-url")
let fixture = FixtureAPI()
let demo = Demo(
    baseURL: realBaseURL ?? FixtureAPI.baseURL,
    networking: realBaseURL == nil ? fixture : URLSessionProvider(),
    login: option("--user") ?? (realBaseURL == nil ? "ada" : "octocat"),
    fixture: realBaseURL == nil ? fixture : nil)
await demo.run()
