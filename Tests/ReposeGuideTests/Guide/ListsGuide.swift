// The Swift blocks of Docs/Lists.md, verbatim: GuideSnippetTests checks that every block appears here, and
// ListsGuideTests runs the first one.
import Foundation
import Repose

@testable import ReposeTestSupport

enum ListsGuide {
    struct Post: Decodable {
        var title: String
    }

    struct Repo: Decodable {
        let id: Int
        let name: String
    }

    @MainActor final class ReposScreen {
        let repos: PagedList<Repo>  // the screen keeps its list: a list nobody keeps stops

        init(service: Service) {
            repos = service.pagedList(startingAt: service.resource("/users/ada/repos"), items: [Repo].self)
            repos.state.observe(owner: self) { screen, list in screen.show(list) }
            repos.loadMore()  // the first page; every later call, the page after the last one
        }

        func pullToRefresh() {
            repos.refresh()  // the first page again: one request, answered 304 when nothing changed
        }

        func show(_ list: PagedListState<Repo>) {
            // fill the table with list.items
        }
    }

    @MainActor final class ReposModel {
        let list: PagedList<Repo>
        let rows: State<[String]>

        init(service: Service) {
            list = service.pagedList(startingAt: service.resource("/users/ada/repos"), items: [Repo].self)
            rows = list.state.map { $0.items.map(\.name) }
        }
    }

    @MainActor
    static func envelope(_ service: Service) -> PagedList<Post> {
        struct FeedPage: Decodable {
            var posts: [Post]
            var next: String?
        }

        let feed = service.pagedList(
            startingAt: service.resource("/feed"), pages: FeedPage.self, items: \.posts,
            nextPage: .cursor(parameter: "after") { $0.next })
        return feed
    }

    @MainActor
    static func decoding(_ service: Service) {
        service.configureTransformer("/users/*/repos", decoding: [Repo].self)
    }
}

/// The page's screen that shows a user and their repositories as one group.
@MainActor
final class ListsGuideGroupScreen {
    let progress = GuideLabel()
    var group = ResourceGroup()
    private(set) var shown: [String] = []

    func showSpinner() { shown.append("spinner") }
    func showBanner(_ message: String, retry: @escaping () -> Void) { shown.append("banner: \(message)") }
    func showContent(partial: Bool = false) { shown.append(partial ? "partial content" : "content") }
    func showPlaceholder() { shown.append("placeholder") }

    func show(user: Resource, repositories: Resource) {
        group = ResourceGroup([user, repositories])  // the screen keeps its group
        group.state.observe(owner: self) { screen, status in
            switch status.display {
            case .loading: screen.showSpinner()
            case .error(let error): screen.showBanner(error.userMessage, retry: screen.group.retryFailed)
            case .allData: screen.showContent()
            case .anyData: screen.showContent(partial: true)  // some members have data, not all
            case .empty: screen.showPlaceholder()
            }
            screen.progress.text = "\(status.dataCount) of \(status.memberCount)"
        }
    }
}
