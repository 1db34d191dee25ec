import Foundation
import Observation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// An item of the test feeds.
struct Repo: Decodable, Equatable, Sendable {
    let id: Int
    let name: String
}

/// A JSON array of repos with these ids, named `r<id>`.
func reposJSON(_ ids: [Int]) -> String {
    "[" + ids.map { #"{"id":\#($0),"name":"r\#($0)"}"# }.joined(separator: ",") + "]"
}

extension Harness {
    /// Answers `request` with a page of repos, a `Link` to `next` if given, and an ETag if given.
    @discardableResult
    func answerPage(_ request: Request?, _ ids: [Int], next: String? = nil, etag: String? = nil) async -> ResponseInfo?
    {
        guard let request else {
            Issue.record("no request to answer")
            return nil
        }
        var headers: [String: String] = [:]
        if let next { headers["Link"] = #"<\#(next)>; rel="next""# }
        if let etag { headers["ETag"] = etag }
        return await answer(request, contentType: "application/json", text: reposJSON(ids), headers: headers)
    }
}

@MainActor
@Suite("Paged lists: loading, state and refresh", .checksLifetimes)
struct PagedListTests {
    let harness = Harness()
    var service: Service { harness.service }

    func makeList(options: PagedList<Repo>.Options = .init()) -> PagedList<Repo> {
        service.pagedList(startingAt: service.resource("/repos"), items: [Repo].self, options: options)
    }

    func ids(_ list: PagedList<Repo>) -> [Int] { list.state.value.items.map(\.id) }

    @Test("L3 a new list is empty, has more to load, and observing its state loads nothing")
    func startsEmpty() {
        let list = makeList()
        var snapshots = 0
        let subscription = list.state.observe { _ in snapshots += 1 }
        let state = list.state.value
        #expect(state.items.isEmpty && state.hasMore && !state.isLoading && state.latestError == nil)
        #expect(state.pageCount == 0)
        #expect(snapshots == 1)
        #expect(harness.network.sent.isEmpty)
        subscription.cancel()
    }

    @Test("L1 L3 L4 loadMore loads the first page, then the page its Link header names; the state follows each step")
    func pagesInOrder() async throws {
        let list = makeList()
        var steps: [String] = []
        let subscription = list.state.observe { state in
            steps.append(
                "\(state.items.map(\.id)) more=\(state.hasMore) loading=\(state.isLoading)/\(state.isLoadingMore)")
        }
        await harness.answerPage(list.loadMore(), [1, 2], next: "/v1/repos?page=2")
        await harness.answerPage(list.loadMore(), [3, 4], next: "repos?page=3")
        await harness.answerPage(list.loadMore(), [5])
        #expect(list.loadMore() == nil)

        #expect(
            steps == [
                "[] more=true loading=false/false",
                "[] more=true loading=true/false", "[1, 2] more=true loading=false/false",
                "[1, 2] more=true loading=true/true", "[1, 2, 3, 4] more=true loading=false/false",
                "[1, 2, 3, 4] more=true loading=true/true", "[1, 2, 3, 4, 5] more=false loading=false/false",
            ])
        #expect(
            harness.network.sent.map { $0.url } == [
                "https://zingle.frotz/v1/repos", "https://zingle.frotz/v1/repos?page=2",
                "https://zingle.frotz/v1/repos?page=3",
            ])
        #expect(list.state.value.items.last == Repo(id: 5, name: "r5"))
        #expect(list.state.value.pageCount == 3)
        subscription.cancel()
    }

    @Test("L4 loadMore starts at most one page load at a time, and none while the first page loads")
    func oneLoadAtATime() async {
        let list = makeList()
        let first = list.loadMore()
        #expect(list.loadMore() == nil && list.refresh() === first)
        #expect(harness.network.pendingCount == 1)
        await harness.answerPage(first, [1], next: "/v1/repos?page=2")
        let second = list.loadMore()
        #expect(second != nil && list.loadMore() == nil)
        #expect(harness.network.pendingCount == 1)
        await harness.answerPage(second, [2])
    }

    @Test("L2 a page that is fresh in the service is added at once, without a request")
    func freshPageNeedsNoRequest() async {
        let list = makeList()
        await harness.answerPage(list.loadMore(), [1], next: "/v1/repos?page=2")
        let second = service.resource("/repos").withParam("page", "2")
        await harness.answerPage(second.load(), [2])
        let sentBefore = harness.network.sent.count

        #expect(list.loadMore() == nil)
        #expect(ids(list) == [1, 2])
        #expect(harness.network.sent.count == sentBefore)
        #expect(list.pages.map(\.url) == [service.resource("/repos").url, second.url])
        #expect(list.pages.dropFirst().first === second)
    }

    @Test("L2 a list starts from the first page's data already in the service")
    func startsFromSharedData() async {
        let first = service.resource("/repos")
        await harness.answerPage(first.load(), [1, 2], next: "/v1/repos?page=2")
        let list = makeList()
        #expect(ids(list) == [1, 2])
        #expect(list.loadIfNeeded() == nil)
    }

    @Test("L5 refresh sends the first page's ETag; a 304 keeps every page, and costs that one request")
    func refreshNotModified() async {
        let list = makeList()
        await harness.answerPage(list.loadMore(), [1, 2], next: "/v1/repos?page=2", etag: "\"a\"")
        await harness.answerPage(list.loadMore(), [3, 4], next: "/v1/repos?page=3")
        let sentBefore = harness.network.sent.count

        let refresh = list.refresh()
        #expect(list.state.value.isLoading && !list.state.value.isLoadingMore)
        await harness.answer(refresh, status: 304, headers: ["ETag": "\"a\""])

        #expect(harness.network.sent.count == sentBefore + 1)
        #expect(harness.network.sent.last?.header("If-None-Match") == "\"a\"")
        #expect(ids(list) == [1, 2, 3, 4])
        #expect(list.state.value.pageCount == 2 && list.state.value.hasMore)
    }

    @Test("L5 refresh with new content keeps only the new first page; the next page loads again from the network")
    func refreshNewContent() async {
        let list = makeList()
        await harness.answerPage(list.loadMore(), [1, 2], next: "/v1/repos?page=2", etag: "\"a\"")
        await harness.answerPage(list.loadMore(), [3, 4], next: "/v1/repos?page=3")
        await harness.answerPage(list.refresh(), [0, 1], next: "/v1/repos?page=2", etag: "\"b\"")
        #expect(ids(list) == [0, 1])
        #expect(list.state.value.pageCount == 1)

        let reload = list.loadMore()  // page 2's data is recent, but it followed the old first page
        #expect(reload != nil)
        await harness.answerPage(reload, [2, 3])
        #expect(ids(list) == [0, 1, 2, 3])
    }

    @Test("L5 new first-page content stops the wait for a next page on its way")
    func refreshAbandonsPendingPage() async throws {
        let list = makeList()
        await harness.answerPage(list.loadMore(), [1], next: "/v1/repos?page=2")
        let second = try #require(list.loadMore())
        let first = service.resource("/repos")
        first.overrideLocalContent(with: [["id": 9, "name": "r9"]])
        #expect(ids(list) == [9])
        #expect(!list.state.value.isLoadingMore)
        #expect(second.state == .completed)  // nothing else observed page 2: its load was cancelled
    }

    @Test("L6 with a maximum page count the oldest pages are dropped as new ones load")
    func maximumPageCount() async {
        let list = makeList(options: .init(maximumPageCount: 2))
        await harness.answerPage(list.loadMore(), [1], next: "/v1/repos?page=2")
        await harness.answerPage(list.loadMore(), [2], next: "/v1/repos?page=3")
        await harness.answerPage(list.loadMore(), [3], next: "/v1/repos?page=4")
        #expect(ids(list) == [2, 3])
        #expect(list.pages.map(\.url.query) == ["page=2", "page=3"])
        #expect(list.state.value.hasMore)
    }

    @Test("L7 with an id, an item that moved to the next page while paging appears once, at its first position")
    func deduplicatesByID() async {
        let list = makeList(options: .init(id: \.id))
        await harness.answerPage(list.loadMore(), [9, 8, 7], next: "/v1/repos?page=2")
        await harness.answerPage(list.loadMore(), [7, 6, 5])
        #expect(ids(list) == [9, 8, 7, 6, 5])
    }

    @Test("autoloadingState loads the first page when first observed, and not again while it is fresh")
    func autoloading() async throws {
        let list = makeList()
        let autoloading = list.autoloadingState()
        #expect(harness.network.sent.isEmpty)
        var loadingSeen: [Bool] = []
        let subscription = autoloading.observe { loadingSeen.append($0.isLoading) }
        #expect(loadingSeen == [true])
        let request = try #require(service.resource("/repos").loadRequests.first)
        await harness.answerPage(request, [1])
        #expect(loadingSeen == [true, false])
        subscription.cancel()

        let again = autoloading.observe { _ in }
        #expect(harness.network.sent.count == 1)
        again.cancel()
    }

    @Test("L3 ObservablePagedList mirrors the list's state and is tracked by withObservationTracking")
    func observable() async {
        let model = ObservablePagedList(makeList())
        let changed = ObservationFlag()
        withObservationTracking {
            _ = model.state.isLoading
        } onChange: {
            changed.set()
        }
        let request = model.list.loadMore()
        #expect(changed.isSet && model.state.isLoading)
        await harness.answerPage(request, [1, 2])
        #expect(model.state.items.map(\.id) == [1, 2])
    }
}

/// A flag that `withObservationTracking`'s change handler, which may run on any thread, can set.
private final class ObservationFlag: @unchecked Sendable {
    // Safe: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value = false

    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
