import Foundation
import Repose
import ReposeTesting
import Testing

@testable import ReposeTestSupport

/// The examples of `Docs/Lists.md`, compiled and run on the stub provider, as an app's tests would.
@MainActor
@Suite("Lists guide examples", .checksLifetimes)
struct ListsGuideTests {
    struct Repo: Decodable {
        let id: Int
        let name: String
    }
    struct Post: Decodable { let id: Int }
    struct FeedPage: Decodable {
        var posts: [Post]
        var next: String?
    }

    @MainActor final class ReposModel {
        let list: PagedList<Repo>
        let rows: State<[String]>

        init(service: Service) {
            list = service.pagedList(startingAt: service.resource("/users/ada/repos"), items: [Repo].self)
            rows = list.state.map { $0.items.map(\.name) }
        }
    }

    let network = StubNetworkingProvider()
    let service: Service
    let base = "https://api.example.com"

    init() {
        service = Service(baseURL: base, options: .init(networking: network))
        LifetimeCheck.track(service)
        network.stub(
            .get, "\(base)/users/ada/repos",
            headers: ["Link": #"</users/ada/repos?page=2>; rel="next""#, "ETag": "\"1\""],
            json: [["id": 1, "name": "engine"]])
        network.stub(
            StubMatcher(.get, "\(base)/users/ada/repos").header("If-None-Match", "\"1\""),
            .status(304, headers: ["ETag": "\"1\""]))
        network.stub(.get, "\(base)/users/ada/repos?page=2", json: [["id": 2, "name": "notes"]])
    }

    @Test("L1 L5 a list in four lines: loadMore follows the Link header, refresh costs one 304")
    func fourLines() async {
        let repos = service.pagedList(startingAt: service.resource("/users/ada/repos"), items: [Repo].self)
        var shown: [[String]] = []
        repos.state.observe(owner: self.network) { list in shown.append(list.items.map(\.name)) }
        _ = await repos.loadMore()?.response
        _ = await repos.loadMore()?.response
        _ = await repos.refresh().response
        #expect(shown.last == ["engine", "notes"])
        #expect(network.requests.count == 3 && network.requests.last?.header("If-None-Match") == "\"1\"")
    }

    @Test("L3 a view model maps the list's state like any state")
    func viewModel() async {
        let model = ReposModel(service: service)
        _ = await model.list.loadMore()?.response
        #expect(model.rows.value == ["engine"])
    }

    @Test("L1 an envelope with a cursor; the pipeline may decode pages before the list sees them")
    func envelopeAndTransformer() async {
        network.stub(.get, "\(base)/feed", json: ["posts": [["id": 1]], "next": "abc"])
        network.stub(.get, "\(base)/feed?after=abc", json: ["posts": [["id": 2]]])
        service.configureTransformer("/feed", decoding: FeedPage.self)
        let feed = service.pagedList(
            startingAt: service.resource("/feed"), pages: FeedPage.self, items: \.posts,
            nextPage: .cursor(parameter: "after") { $0.next })
        _ = await feed.loadMore()?.response
        #expect(service.resource("/feed").latestData?.content is FeedPage)
        _ = await feed.loadMore()?.response
        #expect(feed.state.value.items.map(\.id) == [1, 2] && !feed.state.value.hasMore)
    }

    @Test("a group tells all data from some, and counts")
    func group() async {
        network.stub(.get, "\(base)/user", json: ["name": "Ada"])
        let user = service.resource("/user")
        let repositories = service.resource("/users/ada/repos")
        let group = ResourceGroup([user, repositories])
        var lines: [String] = []
        group.state.observe(owner: network) { status in
            switch status.display {
            case .loading: lines.append("spinner")
            case .error(let error): lines.append(error.userMessage)
            case .allData: lines.append("content")
            case .anyData: lines.append("partial")
            case .empty: lines.append("placeholder")
            }
            lines.append("\(status.dataCount) of \(status.memberCount)")
        }
        _ = await user.load().response
        _ = await repositories.load().response
        #expect(
            lines == [
                "placeholder", "0 of 2", "spinner", "0 of 2", "partial", "1 of 2", "spinner", "1 of 2", "content",
                "2 of 2",
            ])
    }
}
