import Repose

/// The demo's view model: a user, their repositories (found through a link in the user's JSON), and one status
/// line for both, all derived from resource states.
@MainActor
final class ProfileViewModel {
    let user: Resource
    let repositories: State<ResourceState<Any>>
    /// What a screen would show, one line per change.
    let statusLine: State<String>
    private var subscriptions: [Subscription] = []

    init(service: Service, login: String) {
        user = service.resource("/users").child(segment: login)
        repositories = user.state.flatMapLatest { state -> State<ResourceState<Any>> in
            guard let href = state.jsonDict["repos_url"] as? String else { return .constant(.empty) }
            return service.resource(absoluteURL: href).autoloadingState(cancelDelay: 0)
        }
        statusLine = user.state.combineLatest(repositories).map { user, repos in
            if let error = user.latestError ?? repos.latestError {
                return "⚠️ \(error.userMessage) (\(error.httpStatusCode.map { "HTTP \($0)" } ?? "no response"))"
            }
            guard let name = user.jsonDict["name"] as? String else { return user.isLoading ? "⏳ loading" : "—" }
            let refreshing = user.isLoading ? " (refreshing)" : ""
            if repos.latestData == nil { return "👤 \(name)\(refreshing) — loading repositories…" }
            let repoNames = repos.jsonArray.compactMap { ($0 as? [String: Any])?["name"] as? String }
            return "👤 \(name)\(refreshing) — \(repoNames.joined(separator: ", "))"
        }.removeDuplicates()
    }

    /// Prints every new status line.
    func start(print output: @escaping (String) -> Void) {
        subscriptions.append(statusLine.observe(output))
        user.loadIfNeeded()
    }
}
