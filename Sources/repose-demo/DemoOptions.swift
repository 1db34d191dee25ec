import Foundation

/// What the command line asked for.
struct DemoOptions {
    /// A live API of GitHub's shape; `nil` for the embedded fixture.
    var baseURL: String?
    /// Sent as `Authorization: Bearer …` to the live API.
    var token: String?
    /// The user shown first.
    var login: String?
    /// Forget what earlier runs cached on disk.
    var startsCold = false
    /// Run the scripted tour even when standard input is a terminal.
    var runsTour = false
    /// Print the usage and leave.
    var showsHelp = false

    /// What `--help` prints.
    static let usage = """
        usage: repose-demo [--base-url URL [--token TOKEN]] [--user LOGIN] [--fresh] [--tour]

        A terminal client for a GitHub-like API that shows what Repose does. It runs on an embedded fixture API
        with realistic data and latency, and no network, unless given --base-url. From a terminal it takes
        commands. With standard input from a file or a pipe (or with --tour) it plays a scripted tour of every
        feature on the embedded API and exits; with --base-url it reads its commands from there instead. Data is
        cached on disk, per API and token, so the next run starts warm.

          --base-url URL   a live API of GitHub's shape, such as https://api.github.com
          --token TOKEN    sent as "Authorization: Bearer TOKEN" (never printed); starring needs one
          --user LOGIN     the user shown first (ada on the fixture, octocat on a live API)
          --fresh          forget what earlier runs cached, and start cold
          --tour           play the scripted tour (on the embedded API) even from a terminal
          -h, --help       this text

        commands:
        \(Command.summary.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
        """

    /// Reads `arguments` (without the program's name).
    static func parse(_ arguments: [String]) -> Result<DemoOptions, CommandError> {
        var options = DemoOptions()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "-h", "--help": options.showsHelp = true
            case "--fresh": options.startsCold = true
            case "--tour": options.runsTour = true
            case "--base-url", "--token", "--user":
                guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
                    return .failure(CommandError("\(argument) needs a value"))
                }
                if argument == "--token" { options.token = value }
                if argument == "--user" { options.login = value }
                if argument == "--base-url" {
                    guard let url = URL(string: value), ["http", "https"].contains(url.scheme ?? ""), url.host != nil
                    else { return .failure(CommandError("--base-url needs an http or https URL")) }
                    options.baseURL = value
                }
            default:
                return .failure(CommandError("unknown option \(argument)"))
            }
        }
        if options.token != nil, options.baseURL == nil {
            return .failure(CommandError("--token goes with --base-url: the embedded API needs none"))
        }
        return .success(options)
    }
}
