import Repose

/// Starring and unstarring a repository as optimistic changes: the new star count shows at once, and if the server
/// refuses, that change alone is taken back.
///
/// This is the one file that knows how an optimistic change is made; the rest of the demo only calls
/// ``star(_:)`` and ``unstar(_:)`` and reads the ``Outcome``. For now it overrides the repository's content
/// locally, sends `PUT` or `DELETE /user/starred/{owner}/{repo}`, and on failure subtracts its own step from
/// whatever the repository shows by then, so that other changes made meanwhile stay.
@MainActor
struct StarActions {
    /// What became of a change.
    enum Outcome {
        /// The server accepted it; the repository keeps showing it.
        case kept
        /// The server refused it, or could not be reached; it no longer shows.
        case rolledBack(RequestError)
    }

    /// Where the star requests go.
    let service: Service

    /// Stars `repository` (a `/repos/{owner}/{repo}` resource): one more star at once, then the server's word.
    func star(_ repository: Resource) async -> Outcome {
        await change(repository, by: 1, method: .put)
    }

    /// Unstars `repository`: one star fewer at once, then the server's word.
    func unstar(_ repository: Resource) async -> Outcome {
        await change(repository, by: -1, method: .delete)
    }

    private func change(_ repository: Resource, by step: Int, method: RequestMethod) async -> Outcome {
        adjustStars(of: repository, by: step)
        let names = repository.url.pathComponents.suffix(2)
        let starred = service.resource(segments: ["user", "starred"] + names)
        switch await starred.request(method).response {
        case .success:
            return .kept
        case .failure(let error):
            adjustStars(of: repository, by: -step)
            return .rolledBack(error)
        }
    }

    /// Shows `step` more stars on `repository`, without the network; nothing when it has no data to change.
    private func adjustStars(of repository: Resource, by step: Int) {
        var json = repository.jsonDict
        guard let stars = json["stargazers_count"] as? Int else { return }
        json["stargazers_count"] = stars + step
        repository.overrideLocalContent(with: json)
    }
}
