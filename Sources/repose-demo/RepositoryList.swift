import Foundation
import Repose
import ReposeLists

/// A repository as a list row shows it, decoded from GitHub's repository JSON.
struct RepositorySummary: Decodable, Sendable {
    let name: String
    let fullName: String?
    let stargazersCount: Int?
    let archived: Bool?
}

/// A user's repositories, a page at a time: a ``PagedList`` that follows the `Link` headers of its pages.
///
/// Its first page is the profile's repositories resource, so when the profile has loaded it the list starts with
/// it, without a request.
@MainActor
final class RepositoryList {
    /// The list: its pages are ordinary resources of the service.
    let list: PagedList<RepositorySummary>

    /// A list starting at `firstPage`, then the pages its `Link` headers name.
    init(service: Service, firstPage: Resource) {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        list = service.pagedList(startingAt: firstPage, items: [RepositorySummary].self, decoder: decoder)
    }

    /// Prints the pages the list holds, or loads the first one when it holds none.
    func show() async {
        let state = list.state.value
        guard state.pageCount > 0 else { return await more() }
        say("📚 \(describe(state)); the profile had loaded page 1, so no request")
        rows(of: state, from: 0)
    }

    /// Loads the next page, and prints its rows. After a failure the page is asked for again at once: the user asked.
    func more() async {
        let before = list.state.value
        guard before.hasMore else { return say("📚 no more pages: all \(before.items.count) repositories are here") }
        if let request = before.latestError == nil ? list.loadMore() : list.retry() { _ = await request.response }
        await Waiting.until(list.state) { !$0.isLoading }
        let after = list.state.value
        if let error = after.latestError, after.pageCount == before.pageCount {
            let which = before.pageCount == 0 ? "first" : "next"
            return say("⚠️  the \(which) page did not load: \(error.userMessage)")
        }
        say("📚 page \(after.pageCount) loaded: \(describe(after))")
        rows(of: after, from: before.items.count)
    }

    private func describe(_ state: PagedListState<RepositorySummary>) -> String {
        let count = "\(state.items.count) repositories in \(state.pageCount) page\(state.pageCount == 1 ? "" : "s")"
        return count + (state.hasMore ? ", more to come (`more`)" : ", that is all")
    }

    private func rows(of state: PagedListState<RepositorySummary>, from start: Int) {
        for (index, repository) in state.items.enumerated() where index >= start {
            let stars = repository.stargazersCount.map { " ★ \($0)" } ?? ""
            let archived = repository.archived == true ? " (archived)" : ""
            say("   \(index + 1). \(repository.fullName ?? repository.name)\(stars)\(archived)")
        }
    }
}
