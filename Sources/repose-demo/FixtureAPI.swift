import Foundation
import Repose

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A tiny GitHub-like API that lives inside the demo, so `swift run repose-demo` works with no network.
///
/// Routes: `GET /users/{login}` (a user, with an ETag), `GET /users/{login}/repos` (their repositories); anything
/// else is a 404 with a JSON message. Responses arrive a few milliseconds later on a background queue, as real
/// ones would.
final class FixtureAPI: NetworkingProvider, @unchecked Sendable {
    // Safe: `requestCount` is only touched under the lock; the fixture data is immutable.
    private let lock = NSLock()
    private var count = 0
    private let queue = DispatchQueue(label: "repose-demo.fixture")
    static let baseURL = "https://fixture.repose.example/api"

    private let users: [String: [String: Any]] = [
        "ada": ["login": "ada", "name": "Ada Lovelace", "bio": "Wrote the first program."],
        "grace": ["login": "grace", "name": "Grace Hopper", "bio": "Found the first bug."],
    ]
    private let repositories: [String: [[String: Any]]] = [
        "ada": [["name": "analytical-engine", "stars": 1843], ["name": "notes-on-the-engine", "stars": 962]],
        "grace": [
            ["name": "cobol", "stars": 1959], ["name": "nanoseconds", "stars": 300], ["name": "mark-i", "stars": 44],
        ],
    ]

    /// How many requests reached the fixture.
    var requestCount: Int { lock.withLock { count } }

    func startRequest(
        _ request: URLRequest, progress: @escaping @Sendable (TransferProgress) -> Void,
        completion: @escaping @Sendable (Result<NetworkResponse, any Error>) -> Void
    ) -> any NetworkingTask {
        lock.withLock { count += 1 }
        let response = answer(request)
        let task = FixtureTask()
        queue.asyncAfter(deadline: .now() + .milliseconds(5)) {
            if !task.isCancelled { completion(.success(response)) }
        }
        return task
    }

    private func answer(_ request: URLRequest) -> NetworkResponse {
        let path = request.url?.path ?? ""
        let prefix = "/api/users/"
        guard request.httpMethod == "GET", path.hasPrefix(prefix) else { return notFound() }
        let parts = path.dropFirst(prefix.count).split(separator: "/").map(String.init)
        switch parts.count {
        case 1:
            guard var user = users[parts[0]] else { return notFound() }
            user["repos_url"] = "\(Self.baseURL)/users/\(parts[0])/repos"
            let etag = "\"user-\(parts[0])-v1\""
            if request.value(forHTTPHeaderField: "If-None-Match") == etag {
                return NetworkResponse(statusCode: 304, headers: ["ETag": etag])
            }
            return json(user, etag: etag)
        case 2 where parts[1] == "repos":
            guard let repos = repositories[parts[0]] else { return notFound() }
            return json(repos, etag: nil)
        default:
            return notFound()
        }
    }

    private func json(_ object: Any, etag: String?) -> NetworkResponse {
        var headers = ["Content-Type": "application/json; charset=utf-8"]
        headers["ETag"] = etag
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return NetworkResponse(statusCode: 200, headers: headers, body: body)
    }

    private func notFound() -> NetworkResponse {
        NetworkResponse(
            statusCode: 404, headers: ["Content-Type": "application/json"],
            body: Data(#"{"message":"No such user"}"#.utf8))
    }
}

/// A fixture request in flight.
final class FixtureTask: NetworkingTask, @unchecked Sendable {
    // Safe: the flag is only touched under the lock.
    private let lock = NSLock()
    private var cancelled = false

    var isCancelled: Bool { lock.withLock { cancelled } }

    func cancel() {
        lock.withLock { cancelled = true }
    }
}
