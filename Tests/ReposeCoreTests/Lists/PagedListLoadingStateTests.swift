import Foundation
import Testing

@testable import Repose
@testable import ReposeLists
@testable import ReposeTestSupport

@MainActor
@Suite("Paged lists: loading while a page reads its cache, and which links are the page's", .checksLifetimes)
struct PagedListLoadingStateTests {
    let harness = Harness()
    let cache = RecordingCache()
    var service: Service { harness.service }

    func makeList() -> PagedList<Repo> {
        service.pagedList(startingAt: service.resource("/repos"), items: [Repo].self)
    }

    @Test("L3 a paged list is loading while its first page reads its cache, and not once the cache answered")
    func loadingWhileFirstPageReadsCache() async throws {
        let cache = self.cache
        service.configure { $0.pipeline[.rawData].cacheUsing(cache) }
        cache.seed("/v1/repos", content: Data(reposJSON([1]).utf8), contentType: "application/json", timestamp: 995)
        let list = makeList()
        var loading: [Bool] = []
        let subscription = list.state.observe { loading.append($0.isLoading) }
        let request = try #require(list.loadIfNeeded())
        #expect(list.state.value.isLoading)
        await service.resource("/repos").cacheCheckCompleted()
        await harness.network.failPending()  // a load a regression sends fails now rather than wait for ever
        _ = await request.responseInfo
        #expect(list.state.value.items.map(\.id) == [1])
        #expect(!list.state.value.isLoading)
        #expect(loading.first == false && loading.dropFirst().first == true && loading.last == false)
        #expect(harness.network.sent.isEmpty)
        subscription.cancel()
    }

    @Test("L3 loadMore shows loading more at once when the next page reads its cache")
    func loadingMoreWhileNextPageReadsCache() async throws {
        let cache = self.cache
        service.configure("/page2") { $0.pipeline[.rawData].cacheUsing(cache) }
        cache.seed("/v1/page2", content: Data(reposJSON([2]).utf8), contentType: "application/json", timestamp: 995)
        let list = makeList()
        await harness.answerPage(list.loadMore(), [1], next: "/v1/page2")
        let request = try #require(list.loadMore())
        #expect(list.state.value.isLoading && list.state.value.isLoadingMore)
        await service.resource("/page2").cacheCheckCompleted()
        await harness.network.failPending()
        _ = await request.responseInfo
        #expect(list.state.value.items.map(\.id) == [1, 2])
        #expect(!list.state.value.isLoadingMore)
    }

    @Test("W6 a next link anchored at another resource is not this page's next")
    func anchoredLinkIgnored() async {
        let list = makeList()
        let request = list.loadMore()
        await harness.answer(
            request!, contentType: "application/json", text: reposJSON([1]),
            headers: ["Link": #"</v1/repos?page=2>; rel="next"; anchor="/v1/other""#])
        #expect(!list.state.value.hasMore)
        #expect(list.loadMore() == nil)
    }

    @Test("W6 an unquoted rel with several types, or an anchor naming the page itself, still gives the next page")
    func unquotedRelAndSelfAnchor() async {
        let list = makeList()
        await harness.answer(
            list.loadMore()!, contentType: "application/json", text: reposJSON([1]),
            headers: ["Link": "</v1/repos?page=2>; rel=prefetch next; anchor=\"/v1/repos\""])
        #expect(list.state.value.hasMore)
        await harness.answerPage(list.loadMore(), [2])
        #expect(list.state.value.items.map(\.id) == [1, 2])
        #expect(harness.network.sent.last?.url == "https://zingle.frotz/v1/repos?page=2")
    }
}
