import Repose

/// The demo's view model: a user, their repositories (found through a link in the user's JSON), and one status
/// line for both, all derived from resource states.
@MainActor
final class ProfileViewModel {
    let user: Resource
    let repositories: State<ResourceState<Any>>
    let group = ResourceGroup()
    /// What a screen would show, one line per change.
    let statusLine: State<String>
    private var subscriptions: [Subscription] = []

    init(service: Service, login: String) {
        user = service.resource("/users").child(login)
        repositories = user.state.flatMapLatest { state -> State<ResourceState<Any>> in
            guard let href = state.jsonDict["repos_url"] as? String else { return .constant(.empty) }
            return service.resource(absoluteURL: href).autoloadingState(cancelDelay: 0)
        }
        group.add(user)
        let group = self.group
        statusLine = user.state.combineLatest(repositories, group.state).map { user, repos, status in
            let name = user.jsonDict["name"] as? String ?? "…"
            let repoNames = repos.jsonArray.compactMap { ($0 as? [String: Any])?["name"] as? String }
            switch status.display {
            case .loading: return "⏳ loading \(name)"
            case .error(let error):
                return "⚠️ \(error.userMessage) (\(error.httpStatusCode.map(String.init) ?? "no status"))"
            case .anyData, .allData:
                return repos.isLoading
                    ? "👤 \(name) — loading repositories…" : "👤 \(name) — \(repoNames.joined(separator: ", "))"
            case .empty: return "nothing yet"
            }
        }.removeDuplicates()
    }

    /// Prints every new status line.
    func start(print output: @escaping (String) -> Void) {
        subscriptions.append(statusLine.observe(output))
        user.loadIfNeeded()
    }
}
