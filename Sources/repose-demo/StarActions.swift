import Repose

/// Starring and unstarring a repository as optimistic changes: the new star count shows at once, and if the server
/// refuses, that change alone is taken back.
///
/// This is the one file that knows how an optimistic change is made; the rest of the demo only calls
/// ``star(_:)`` and ``unstar(_:)`` and reads the ``Outcome``. It sends `PUT` or `DELETE /user/starred/{owner}/{repo}`
/// as a write whose change, one star more or fewer, shows on the repository: a layer over the server's data that
/// goes by itself when the server refuses, whatever other changes are pending, and that the repository's reload
/// replaces when the server agrees.
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
        let names = repository.url.pathComponents.suffix(2)
        let starred = service.resource(segments: ["user", "starred"] + names)
        let oneStar = OptimisticChange.update([String: Any].self) { json in
            if let stars = json["stargazers_count"] as? Int { json["stargazers_count"] = stars + step }
        }
        do {
            _ = try await starred.request(method, showing: oneStar, on: repository).entity
            return .kept
        } catch {
            return .rolledBack(error)
        }
    }
}
