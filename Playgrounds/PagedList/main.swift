// PagedList: a repository list that pages through Link headers, refreshes with a 304, and recovers from a page
// error. Run it with `swift run PagedList`. No network: a StubNetworkingProvider answers every request.
import Foundation
import Repose
import ReposeLists
import ReposeTesting

func step(_ title: String) {
    print("\n== \(title)")
}

/// An item of the list, decoded straight from each page's JSON.
struct Repo: Decodable {
    let id: Int
    let name: String
}

/// The server: three pages of repositories, each naming the next in a `Link` header. The first page has an ETag
/// and answers 304 to it; the third fails once with a 503 before it works.
@MainActor
func stubServer() -> StubNetworkingProvider {
    let network = StubNetworkingProvider()
    let base = "https://api.example.com/users/ada/repos"
    func repos(_ ids: ClosedRange<Int>) -> [Any] { ids.map { ["id": $0, "name": "repo-\($0)"] } }
    func link(_ page: Int) -> [String: String] { ["Link": "<\(base)?page=\(page)>; rel=\"next\""] }

    network.stub(.get, base, headers: link(2).merging(["ETag": "\"v1\""]) { $1 }, json: repos(1...3))
    network.stub(StubMatcher(.get, base).header("If-None-Match", "\"v1\""), .status(304, headers: ["ETag": "\"v1\""]))
    network.stub(.get, "\(base)?page=2", headers: link(3), json: repos(4...6))
    network.stub(.get, "\(base)?page=3", responses: [.text("try again later", status: 503), .json(repos(7...8))])
    return network
}

@MainActor
func tour() async {
    let network = stubServer()
    let service = Service(baseURL: "https://api.example.com", options: .init(networking: network))

    // A list starts at its first page and decodes each page as an array of `Repo`. It loads nothing yet.
    step("A list of Ada's repositories")
    let repos = service.pagedList(startingAt: service.resource("/users/ada/repos"), items: [Repo].self)

    // Its state is a State like any resource's: observe it, map it, bind it. Each line is one snapshot.
    let subscription = repos.state.observe { list in
        let names = list.items.map(\.name).joined(separator: " ")
        let error = list.latestError.map { " error=\"\($0.userMessage)\"" } ?? ""
        print("  [\(names)] more=\(list.hasMore) loading=\(list.isLoading)\(error)")
    }

    // loadMore() loads the first page; each later call loads the page the last one's Link header names.
    step("loadMore(), twice")
    _ = await repos.loadMore()?.response
    _ = await repos.loadMore()?.response

    // refresh() reloads the first page only, sending its ETag. The server answers 304: the list keeps both pages,
    // for the price of one small request.
    step("refresh(): nothing changed")
    let before = network.requests.count
    _ = await repos.refresh().response
    print("requests for the refresh:", network.requests.count - before)
    print("sent If-None-Match:", network.requests.last?.header("If-None-Match") ?? "none")

    // The third page fails: the list keeps its items and shows the error.
    step("loadMore(): the third page fails")
    _ = await repos.loadMore()?.response

    // retry() loads the failed page again at once (loadMore() would wait for the configuration's retryTime).
    step("retry()")
    _ = await repos.retry()?.response
    print("more pages:", repos.state.value.hasMore, "- loadMore() now:", repos.loadMore() == nil ? "nothing" : "a load")

    // Each page is an ordinary resource of the service: cached and shared with any other screen.
    step("The pages are resources")
    for page in repos.pages {
        print("  \(page.url.absoluteString): \(page.latestData?.etag ?? "no ETag")")
    }
    subscription.cancel()
}

await tour()
