import Repose
import ReposeLists

/// A user and the first page of their repositories on one screen, with one status line for both.
///
/// The two resources load side by side, as soon as the screen shows (their `autoloadingState()`s are observed);
/// `combineLatest` folds their states into one line, redrawn only when its text changes. The first page of
/// repositories is the same resource the paged list starts at, so the list shows it without a request.
@MainActor
final class ProfileScreen {
    /// Whose profile this is.
    let login: String
    /// The user, `/users/{login}`.
    let user: Resource
    /// The first page of the user's repositories, five to a page.
    let repositories: Resource
    /// What the screen's status line says, one value per change.
    let statusLine: State<String>
    /// Both states together, for waiting until neither is loading.
    let states: State<(ResourceState<Any>, ResourceState<Any>)>
    private var subscriptions: [Subscription] = []
    private var narrators: [LoadNarrator] = []

    /// The screen for `login`; nothing loads until it ``show()``s.
    init(service: Service, login: String) {
        self.login = login
        user = service.resource(segments: "users", login)
        repositories = service.resource(segments: "users", login, "repos", query: "per_page=5")
        states = user.autoloadingState().combineLatest(repositories.autoloadingState())
        statusLine = states.map { [login] in Self.describe(login, user: $0, repositories: $1) }.removeDuplicates()
    }

    /// Shows the screen: its resources load if needed, and every new status line is printed.
    func show() {
        narrators = [LoadNarrator(user), LoadNarrator(repositories)]
        subscriptions.append(statusLine.observe { say($0) })
    }

    /// Waits until neither resource is loading.
    func settled() async {
        await Waiting.until(states) { user, repositories in !user.isLoading && !repositories.isLoading }
    }

    /// Loads both resources again, sending their ETags, and waits for the answers.
    func refresh(pages: PagedList<RepositorySummary>?) async {
        let requests = [user.load(), pages?.refresh() ?? repositories.load()]
        for request in requests {
            _ = await request.response
        }
        await settled()
    }

    /// Loads again whichever resource failed and is not loading already.
    func retryFailed() async {
        for resource in [user, repositories] where resource.latestError != nil && !resource.isLoading {
            resource.load()
        }
        await settled()
    }

    /// The status line for the two states: loading, the user with their first repositories, refreshing, or the
    /// data beside the error that kept it from being refreshed.
    static func describe(_ login: String, user: ResourceState<Any>, repositories: ResourceState<Any>) -> String {
        let error = user.latestError ?? repositories.latestError
        guard let userData = user.latestData else {
            if let error { return "⚠️  \(login): \(error.userMessage)\(status(of: error))" }
            return "⏳ loading \(login)…"
        }
        let name = user.jsonDict["name"] as? String ?? login
        let count = (user.jsonDict["public_repos"] as? Int).map { "\($0) public repos" } ?? "repos"
        let names = repositories.jsonArray.compactMap { ($0 as? [String: Any])?["name"] as? String }
        let shown =
            repositories.latestData == nil
            ? "loading repositories…"
            : names.isEmpty
                ? "no repositories" : names.prefix(3).joined(separator: ", ") + (names.count > 3 ? ", …" : "")
        let summary = "\(name) (@\(login)) · \(count) · \(shown)"
        if let error {
            let oldest = min(userData.timestamp, repositories.latestData?.timestamp ?? userData.timestamp)
            let since = ClockText.minutes(oldest)
            if user.isStale || repositories.isStale {
                let what = error.httpStatusCode == nil ? "offline" : "server error"
                return "📴 \(what), showing data from \(since) (\(error.userMessage)) — \(summary)"
            }
            return "⚠️  \(error.userMessage)\(status(of: error)) — showing data from \(since), still fresh — \(summary)"
        }
        if user.isLoading || (repositories.isLoading && repositories.latestData != nil) {
            return "🔄 \(summary) (refreshing)"
        }
        return "👤 \(summary)"
    }

    private static func status(of error: RequestError) -> String {
        error.httpStatusCode.map { " (HTTP \($0))" } ?? ""
    }
}
