import Repose

/// User search as you type: keystrokes go into a `MutableState`, a `debounce` lets a query through only once
/// typing pauses, and `flatMapLatestKeepingPrevious` shows the results resource of the latest query, each query a
/// resource of its own (so going back to an earlier one shows its results at once). While a new query loads, the
/// previous query's results stay on screen, marked as previous, rather than an empty list.
@MainActor
final class SearchScreen {
    /// A query and the state of its results.
    struct Results {
        /// The text searched for.
        var query: String
        /// The state of its results resource: the previous query's results while this one loads.
        var state: ResourceState<Any>
    }

    /// The results of the latest query that got through the debounce.
    let results: State<Results>
    private let typed = MutableState("")
    private var subscription: Subscription?

    /// - Parameters:
    ///   - service: Where the search resources come from.
    ///   - pause: How long typing must pause before a query is sent.
    init(service: Service, pause: Duration) {
        let query = typed.state.signal
            .debounce(for: pause, scheduler: MainScheduler())
            .hold(initial: "")
        let found = query.flatMapLatestKeepingPrevious { query in
            query.isEmpty ? nil : service.resource("/search/users").withParam("q", query).autoloadingState()
        }
        // `found` changes after `query` does (it follows it), so the query read here is always the one it shows.
        results = found.map { Results(query: query.value, state: $0) }
        subscription = results.map(Self.describe).removeDuplicates().observe { line in
            if !line.isEmpty { say(line) }
        }
    }

    /// Types `text` one character at a time, `interval` apart, as a person would; then waits for its results.
    func type(_ text: String, every interval: Duration) async {
        var prefix = ""
        let keystrokes = text.map { character in
            prefix.append(character)
            return prefix
        }
        say("⌨️  " + keystrokes.joined(separator: " · "))
        for keystroke in keystrokes {
            typed.value = keystroke
            try? await Task.sleep(for: interval)
        }
        await Waiting.until(results) { results in
            results.query == text && !results.state.isLoading && !results.state.isPrevious
                && (results.state.latestData != nil || results.state.latestError != nil)
        }
    }

    /// One line for the results: searching, the users found, or why there are none.
    static func describe(_ results: Results) -> String {
        let query = "🔎 “\(results.query)”"
        guard !results.query.isEmpty else { return "" }
        if let error = results.state.latestError { return "\(query): \(error.userMessage)" }
        guard results.state.latestData != nil else { return results.state.isLoading ? "\(query): searching…" : "" }
        if results.state.isPrevious { return "\(query): searching… (the previous results stay, dimmed)" }
        let items = results.state.jsonDict["items"] as? [Any] ?? []
        let logins = items.compactMap { ($0 as? [String: Any])?["login"] as? String }
        let total = results.state.jsonDict["total_count"] as? Int ?? logins.count
        let shown = logins.prefix(8).joined(separator: ", ") + (logins.count > 8 ? ", …" : "")
        return "\(query): \(total) user\(total == 1 ? "" : "s")" + (logins.isEmpty ? "" : " — \(shown)")
    }
}
