/// A command typed at the prompt, or played by the tour.
enum Command: Equatable {
    case search(String)
    case user(String)
    case repos
    case more
    case star(String)
    case unstar(String)
    case refresh
    case offline
    case online
    case download(String?)
    case live(String?)
    case inspect
    case help
    case quit

    /// What each command does, for `help` and `--help`.
    static let summary = """
        search TEXT            search users, typing TEXT a key at a time (one request once typing pauses)
        user LOGIN             show a user and their repositories, with one status line for both
        repos                  list the user's repositories, a page at a time
        more                   load the next page of repositories
        star OWNER/REPO        star a repository: shown at once, taken back if the server refuses
        unstar OWNER/REPO      unstar a repository, the same way
        refresh                load the user and their repositories again (304 when nothing changed)
        offline, online        make the embedded API fail every request as a network that is down would, or stop
        download [OWNER/REPO]  download a repository's archive, with a progress bar
        live [OWNER/REPO]      watch a repository's stars change through the server's event stream, live
        inspect                print every live resource of the service and what it knows
        help, quit             this text; leave (so does Ctrl-D)
        """

    /// Reads a command from `line`: `nil` for an empty line, a message for one that is not a command.
    static func parse(_ line: String) -> Result<Command?, CommandError> {
        let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let name = words.first?.lowercased() else { return .success(nil) }
        let argument = words.dropFirst().joined(separator: " ")
        switch (name, argument.isEmpty) {
        case ("search", false): return .success(.search(argument))
        case ("user", false): return .success(.user(argument))
        case ("star", false): return .success(.star(argument))
        case ("unstar", false): return .success(.unstar(argument))
        case ("download", _): return .success(.download(argument.isEmpty ? nil : argument))
        case ("live", _): return .success(.live(argument.isEmpty ? nil : argument))
        case ("repos", true): return .success(.repos)
        case ("more", true): return .success(.more)
        case ("refresh", true): return .success(.refresh)
        case ("offline", true): return .success(.offline)
        case ("online", true): return .success(.online)
        case ("inspect", true): return .success(.inspect)
        case ("help", _), ("?", _): return .success(.help)
        case ("quit", _), ("exit", _): return .success(.quit)
        case ("search", true), ("user", true), ("star", true), ("unstar", true):
            return .failure(CommandError("\(name) needs an argument: see `help`"))
        case (_, false) where ["repos", "more", "refresh", "offline", "online", "inspect"].contains(name):
            return .failure(CommandError("\(name) takes no argument"))
        default:
            return .failure(CommandError("unknown command “\(name)”: see `help`"))
        }
    }
}

/// Why a line is not a command, fit for display.
struct CommandError: Error, Equatable {
    /// What to tell the user.
    let message: String

    /// An error that says `message`.
    init(_ message: String) {
        self.message = message
    }
}
