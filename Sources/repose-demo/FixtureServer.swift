import Foundation
import Repose

/// The fixture's server side: GitHub's routes over ``FixtureData``, with ETags and 304s, `Link` headers between
/// pages, `Cache-Control` lifetimes, and star counts that stars and unstars change.
///
/// A value; ``FixtureAPI`` keeps it under its lock and asks it for each request's reply.
struct FixtureServer {
    /// What to answer, and whether the body trickles in chunks (a large download) or arrives at once.
    struct Reply {
        /// The status, headers and body.
        var response: NetworkResponse
        /// Whether the body arrives in chunks, slowly, with progress.
        var isChunked = false
    }

    /// The base URL that `Link` headers and `repos_url` point under.
    let baseURL: String
    /// The `max-age` every JSON response carries: how long a client may take it as fresh.
    let maxAge: Int
    /// Repositories per page when the request does not say (`per_page`).
    let pageSize = 30
    private var stars: [String: Int] = [:]
    private var starredByMe: Set<String> = []

    /// A server over ``FixtureData``, its star counts as the data says.
    init(baseURL: String, maxAge: Int) {
        self.baseURL = baseURL
        self.maxAge = maxAge
        for user in FixtureData.users {
            for repository in user.repositories { stars["\(user.login)/\(repository.name)"] = repository.stars }
        }
    }

    /// The reply to a request: `method`, `url`, and the `If-None-Match` it carried.
    mutating func reply(method: String, url: URL?, ifNoneMatch: String?) -> Reply {
        guard let url, let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return Reply(response: Self.notFound)
        }
        let parts = url.path.split(separator: "/").map(String.init)
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }) { first, _ in first }
        if method == "GET", let users = Self.match("users/*", parts), let user = Self.user(users[0]) {
            return json(userJSON(user), ifNoneMatch: ifNoneMatch)
        }
        if method == "GET", let users = Self.match("users/*/repos", parts), let user = Self.user(users[0]) {
            return page(of: user, query: query, ifNoneMatch: ifNoneMatch)
        }
        if method == "GET", Self.match("search/users", parts) != nil {
            return search(query["q"] ?? "", ifNoneMatch: ifNoneMatch)
        }
        if method == "GET", let names = Self.match("repos/*/*", parts), let found = repository(names) {
            return json(repositoryJSON(found.owner, found.repository), ifNoneMatch: ifNoneMatch)
        }
        if method == "GET", let names = Self.match("repos/*/*/tarball", parts), repository(names) != nil {
            return Reply(response: Self.tarball, isChunked: true)
        }
        if method == "PUT" || method == "DELETE", let names = Self.match("user/starred/*/*", parts) {
            return star(names, starring: method == "PUT")
        }
        return Reply(response: Self.notFound)
    }

    // MARK: Routes

    private func page(of user: FixtureData.User, query: [String: String], ifNoneMatch: String?) -> Reply {
        let perPage = max(1, min(Int(query["per_page"] ?? "") ?? pageSize, 100))
        let count = user.repositories.count
        let lastPage = max(1, (count + perPage - 1) / perPage)
        let number = min(max(1, Int(query["page"] ?? "") ?? 1), lastPage + 1)  // past the end: an empty page
        let slice = user.repositories.dropFirst((number - 1) * perPage).prefix(perPage)
        var reply = json(slice.map { repositoryJSON(user, $0) }, ifNoneMatch: ifNoneMatch)
        func link(_ page: Int, _ rel: String) -> String {
            "<\(baseURL)/users/\(user.login)/repos?per_page=\(perPage)&page=\(page)>; rel=\"\(rel)\""
        }
        var links: [String] = []
        if number < lastPage { links += [link(number + 1, "next"), link(lastPage, "last")] }
        if number > 1 { links += [link(1, "first"), link(number - 1, "prev")] }
        if !links.isEmpty { reply.response.headers["Link"] = links.joined(separator: ", ") }
        return reply
    }

    private func search(_ text: String, ifNoneMatch: String?) -> Reply {
        let needle = text.lowercased().trimmingCharacters(in: .whitespaces)
        guard !needle.isEmpty else { return Reply(response: Self.error(422, "Validation Failed")) }
        let found = FixtureData.users.filter { $0.login.contains(needle) || $0.name.lowercased().contains(needle) }
        let items = found.map { ["login": $0.login, "type": "User", "url": "\(baseURL)/users/\($0.login)"] }
        return json(
            ["total_count": found.count, "incomplete_results": false, "items": items], ifNoneMatch: ifNoneMatch)
    }

    private mutating func star(_ names: [String], starring: Bool) -> Reply {
        guard let (_, repository) = repository(names) else { return Reply(response: Self.notFound) }
        if repository.archived { return Reply(response: Self.error(403, "Repository was archived so is read-only.")) }
        let fullName = names.joined(separator: "/")
        if starring, starredByMe.insert(fullName).inserted {
            stars[fullName, default: 0] += 1
        } else if !starring, starredByMe.remove(fullName) != nil {
            stars[fullName, default: 1] -= 1
        }
        return Reply(response: NetworkResponse(statusCode: 204))
    }

    /// Someone other than the demo's user stars `fullName` (`OWNER/REPO`): what the live feed reports. `false` for a
    /// repository the data does not have.
    mutating func starByAnotherUser(_ fullName: String) -> Bool {
        guard hasRepository(fullName) else { return false }
        stars[fullName, default: 0] += 1
        return true
    }

    /// Whether the data has the repository `fullName` (`OWNER/REPO`).
    func hasRepository(_ fullName: String) -> Bool {
        repository(fullName.split(separator: "/").map(String.init)) != nil
    }

    // MARK: JSON

    private func userJSON(_ user: FixtureData.User) -> [String: Any] {
        [
            "login": user.login, "name": user.name, "location": user.location, "bio": user.bio, "type": "User",
            "followers": user.followers, "public_repos": user.repositories.count,
            "repos_url": "\(baseURL)/users/\(user.login)/repos",
        ]
    }

    private func repositoryJSON(_ owner: FixtureData.User, _ repository: FixtureData.Repository) -> [String: Any] {
        let fullName = "\(owner.login)/\(repository.name)"
        return [
            "name": repository.name, "full_name": fullName, "description": repository.description,
            "language": repository.language, "archived": repository.archived,
            "stargazers_count": stars[fullName] ?? repository.stars, "owner": ["login": owner.login],
        ]
    }

    /// A 200 with `object` as JSON, its ETag and lifetime; a 304 when the client already holds this very body.
    private func json(_ object: Any, ifNoneMatch: String?) -> Reply {
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        let etag = "\"\(Fingerprint.hex(of: body))\""
        let headers = ["ETag": etag, "Cache-Control": "private, max-age=\(maxAge)"]
        if ifNoneMatch == etag { return Reply(response: NetworkResponse(statusCode: 304, headers: headers)) }
        let json = headers.merging(["Content-Type": "application/json; charset=utf-8"]) { $1 }
        return Reply(response: NetworkResponse(statusCode: 200, headers: json, body: body))
    }

    private static func user(_ login: String) -> FixtureData.User? {
        FixtureData.users.first { $0.login == login.lowercased() }
    }

    private func repository(_ names: [String]) -> (owner: FixtureData.User, repository: FixtureData.Repository)? {
        guard names.count == 2, let owner = Self.user(names[0]),
            let repository = owner.repositories.first(where: { $0.name == names[1] })
        else { return nil }
        return (owner, repository)
    }

    /// The parts of `path` that stand where `pattern` has a `*`, or `nil` when it does not match.
    private static func match(_ pattern: String, _ path: [String]) -> [String]? {
        let expected = pattern.split(separator: "/").map(String.init)
        guard expected.count == path.count else { return nil }
        var captured: [String] = []
        for (want, got) in zip(expected, path) {
            if want == "*" { captured.append(got) } else if want != got { return nil }
        }
        return captured
    }

    private static func error(_ status: Int, _ message: String) -> NetworkResponse {
        let body = (try? JSONSerialization.data(withJSONObject: ["message": message])) ?? Data()
        return NetworkResponse(statusCode: status, headers: ["Content-Type": "application/json"], body: body)
    }

    private static let notFound = error(404, "Not Found")

    /// A 4 MiB archive, sent slowly enough to watch.
    private static let tarball = NetworkResponse(
        statusCode: 200,
        headers: ["Content-Type": "application/x-gzip", "Content-Length": String(4 * 1024 * 1024)],
        body: Data(repeating: 0x2A, count: 4 * 1024 * 1024))
}
