import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@MainActor
@Suite("Paged lists: errors, retries, hostile links and lifetimes", .checksLifetimes)
struct PagedListFailureTests {
    let harness = Harness()
    var service: Service { harness.service }

    func makeList(nextPage: NextPage<[Repo]> = .linkHeader) -> PagedList<Repo> {
        service.pagedList(startingAt: service.resource("/repos"), items: [Repo].self, nextPage: nextPage)
    }

    func ids(_ list: PagedList<Repo>) -> [Int] { list.state.value.items.map(\.id) }

    @Test("L3 a failed page is the list's latest error; the items stay; loadMore waits for retryTime, retry does not")
    func pageErrorAndRetry() async throws {
        let list = makeList()
        await harness.answerPage(list.loadMore(), [1], next: "/v1/repos?page=2")
        await harness.answer(try #require(list.loadMore()), status: 503)
        #expect(list.state.value.latestError?.httpStatusCode == 503)
        #expect(ids(list) == [1] && list.state.value.hasMore && !list.state.value.isLoading)

        // The error is younger than retryTime (1 s by default): nothing is sent, and the request says why.
        let waiting = try #require(list.loadMore())
        #expect(await waiting.responseInfo.response.error?.httpStatusCode == 503)
        #expect(harness.network.sent.count == 2 && !list.state.value.isLoading)
        let retry = try #require(list.retry())
        #expect(list.state.value.isLoadingMore && list.state.value.latestError != nil)
        await harness.answerPage(retry, [2])
        #expect(ids(list) == [1, 2])
        #expect(list.state.value.latestError == nil && list.retry() == nil)
    }

    @Test("L3 after a page error, loadMore tries the page again once retryTime has passed")
    func loadMoreAfterRetryTime() async throws {
        let list = makeList()
        await harness.answerPage(list.loadMore(), [1], next: "/v1/repos?page=2")
        await harness.answer(try #require(list.loadMore()), status: 500)
        harness.scheduler.advance(by: .seconds(2))
        await harness.answerPage(list.loadMore(), [2])
        #expect(ids(list) == [1, 2] && list.state.value.latestError == nil)
    }

    @Test("L3 a failed first page is the list's error; retry loads it again; a failed refresh keeps the items")
    func firstPageErrors() async throws {
        let list = makeList()
        await harness.answer(try #require(list.loadMore()), status: 500)
        #expect(list.state.value.latestError?.httpStatusCode == 500 && list.state.value.hasMore)
        let waiting = try #require(list.loadMore())  // the first page failed a moment ago: its error, no request
        #expect(await waiting.responseInfo.response.error?.httpStatusCode == 500)
        #expect(harness.network.sent.count == 1)
        await harness.answerPage(list.retry(), [1, 2])
        #expect(ids(list) == [1, 2] && list.state.value.latestError == nil)

        await harness.answer(list.refresh(), status: 502)
        #expect(ids(list) == [1, 2])
        #expect(list.state.value.latestError?.httpStatusCode == 502)
    }

    @Test("L3 a list made over a first page that already failed shows that error, with its data or without")
    func startsFromSharedError() async throws {
        let first = service.resource("/repos")
        await harness.answer(first.load(), status: 503)
        #expect(makeList().state.value.latestError?.httpStatusCode == 503)

        await harness.answerPage(first.load(), [1], next: "/v1/repos?page=2")
        await harness.answer(first.load(), status: 500)  // a refresh that failed: the data stays, beside the error
        let list = makeList()
        #expect(ids(list) == [1] && list.state.value.latestError?.httpStatusCode == 500)
        await harness.answerPage(list.retry(), [1, 2])
        #expect(ids(list) == [1, 2] && list.state.value.latestError == nil)
    }

    @Test("a page that cannot be decoded is a parse error naming where decoding stopped, never a crash")
    func undecodablePage() async throws {
        let list = makeList()
        await harness.answer(
            try #require(list.loadMore()), contentType: "application/json", text: #"[{"id": 1, "name": 2}]"#)
        let error = try #require(list.state.value.latestError)
        #expect(error.userMessage == "Cannot parse server response")
        let cause = try #require(error.cause as? RequestError.Cause.ModelDecodingFailed)
        #expect(cause.codingPath == "[0].name")
        #expect(list.state.value.items.isEmpty)
    }

    @Test("content of an unexpected kind is a parse error too")
    func unexpectedContent() async throws {
        let list = makeList()
        service.resource("/repos").overrideLocalContent(with: 42)
        #expect(list.state.value.latestError?.cause is RequestError.Cause.WrongInputTypeInTranformerPipeline)
        service.resource("/repos").overrideLocalContent(with: [["id": 1, "name": "r1"] as [String: Any]] as [Any])
        #expect(ids(list) == [1] && list.state.value.latestError == nil)
    }

    @Test("L1 a next link that leads back to a page of the list ends the list")
    func loopingLinks() async throws {
        let list = makeList()
        await harness.answerPage(list.loadMore(), [1], next: "/v1/repos?page=2")
        await harness.answerPage(list.loadMore(), [2], next: "/v1/repos")
        #expect(!list.state.value.hasMore && list.loadMore() == nil)
        #expect(ids(list) == [1, 2])
    }

    @Test("L1 a next link to another origin is not followed; a custom rule may follow it")
    func crossOriginLinks() async throws {
        let list = makeList()
        await harness.answerPage(list.loadMore(), [1], next: "https://elsewhere.example/repos?page=2")
        #expect(!list.state.value.hasMore)

        let custom = service.pagedList(
            startingAt: service.resource("/other"), items: [Repo].self,
            nextPage: .custom { _, context in context.resource.relative("https://elsewhere.example/repos?page=2") })
        await harness.answerPage(custom.loadMore(), [1])
        #expect(custom.state.value.hasMore)
    }

    @Test("L1 page numbers: page=2, page=3, … until a page holds no items")
    func pageNumbers() async {
        let list = makeList(nextPage: .pageNumber())
        await harness.answerPage(list.loadMore(), [1])
        await harness.answerPage(list.loadMore(), [2])
        await harness.answerPage(list.loadMore(), [])
        #expect(!list.state.value.hasMore && ids(list) == [1, 2])
        #expect(harness.network.sent.compactMap { URL(string: $0.url)?.query } == ["page=2", "page=3"])
    }

    @Test("L1 a cursor from the page's body names the next page")
    func cursors() async throws {
        struct Feed: Decodable {
            var repos: [Repo]
            var next: String?
        }
        let list = service.pagedList(
            startingAt: service.resource("/feed"), pages: Feed.self, items: \.repos,
            nextPage: .cursor(parameter: "after") { $0.next })
        let page = { (ids: [Int], next: String?) in
            #"{"repos": \#(reposJSON(ids)), "next": \#(next.map { "\"\($0)\"" } ?? "null")}"#
        }
        await harness.answer(try #require(list.loadMore()), contentType: "application/json", text: page([1, 2], "c2"))
        await harness.answer(try #require(list.loadMore()), contentType: "application/json", text: page([3], nil))
        #expect(list.state.value.items.map(\.id) == [1, 2, 3] && !list.state.value.hasMore)
        #expect(harness.network.sent.last.flatMap { URL(string: $0.url)?.query } == "after=c2")
    }

    @Test("a list that goes away frees itself and lets go of its pages")
    func lifetime() async throws {
        weak var weakList: PagedList<Repo>?
        weak var weakPage: Resource?
        do {
            let list = makeList()
            await harness.answerPage(list.loadMore(), [1], next: "/v1/repos?page=2")
            await harness.answerPage(list.loadMore(), [2])
            list.state.observe(owner: list) { _ in }
            weakList = list
            weakPage = list.pages.last
        }
        #expect(weakList == nil)
        service.flushUnusedResources()
        #expect(weakPage == nil)
    }

    @Test("an autoloading state keeps its list while it is held; dropping both frees the list")
    func autoloadingLifetime() async {
        weak var weakList: PagedList<Repo>?
        var state: State<PagedListState<Repo>>?
        do {
            let list = makeList()
            state = list.autoloadingState()
            weakList = list
        }
        let subscription = state?.observe { _ in }
        await harness.answerPage(service.resource("/repos").loadRequests.first, [1])
        #expect(weakList != nil && state?.value.items.count == 1)
        subscription?.cancel()
        state = nil
        #expect(weakList == nil)
    }
}
