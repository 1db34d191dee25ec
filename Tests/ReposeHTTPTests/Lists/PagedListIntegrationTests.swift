import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// Paged lists over real HTTP: `URLSessionProvider` and the loopback server's `/feed` route.
@MainActor
@Suite("Paged lists over real HTTP", .checksLifetimes)
final class PagedListIntegrationTests {
    struct Item: Decodable, Equatable {
        let id: Int
        let name: String
    }

    struct CursorPage: Decodable {
        let items: [Item]
        let next: String?
    }

    let fixture: IntegrationFixture
    var service: Service { fixture.service }

    init() async throws {
        fixture = try await IntegrationFixture()
    }

    func feed(_ parameters: [String: String?]) -> Resource {
        service.resource("/feed").withParams(parameters)
    }

    func list(
        _ parameters: [String: String?], options: PagedList<Item>.Options = .init()
    ) -> PagedList<Item> {
        service.pagedList(startingAt: feed(parameters), items: [Item].self, options: options)
    }

    /// Calls `loadMore()` until the list has no more pages (at most `limit` times), waiting for each load.
    func loadAll<T>(_ list: PagedList<T>, limit: Int = 10) async {
        for _ in 0..<limit {
            guard let request = list.loadMore() else { return }
            _ = await fixture.completion(of: request)
        }
    }

    /// The server's count of feed page requests, and of those it answered 304.
    func stats() async throws -> (requests: Int, notModified: Int) {
        let resource = service.resource("/feed/stats")
        try #require(await fixture.completion(of: resource.load()) != nil)
        return (resource.jsonDict["requests"] as? Int ?? -1, resource.jsonDict["notModified"] as? Int ?? -1)
    }

    func send(_ path: String, _ parameters: [String: String?] = [:]) async throws {
        try #require(await fixture.completion(of: service.resource(path).withParams(parameters).load()) != nil)
    }

    @Test("L1 L2 L3 L4 a list follows real Link headers, relative targets resolved; its pages are service resources")
    func linkHeaders() async throws {
        let repos = list(["size": "3"])
        var loadingSeen = false
        let subscription = repos.state.observe { loadingSeen = loadingSeen || $0.isLoadingMore }
        await loadAll(repos)

        let state = repos.state.value
        #expect(state.items.map(\.id) == Array((1...10).reversed()))
        #expect(state.items.first == Item(id: 10, name: "item 10"))
        #expect(!state.hasMore && !state.isLoading && state.latestError == nil && state.pageCount == 4)
        #expect(loadingSeen)
        #expect(repos.loadMore() == nil)
        let second = service.resource(absoluteURL: fixture.server.url("/feed?page=2&size=3"))
        #expect(repos.pages.dropFirst().first === second)  // not [1]: a short list fails here, not crashes
        #expect(second.latestData?.etag == "\"v0-2\"")
        subscription.cancel()
    }

    @Test("L1 a cursor in the page's body names the next page")
    func cursorInBody() async throws {
        let feed = service.pagedList(
            startingAt: feed(["style": "cursor", "size": "4"]), pages: CursorPage.self, items: \.items,
            nextPage: .cursor { $0.next })
        await loadAll(feed)
        #expect(feed.state.value.items.map(\.id) == Array((1...10).reversed()))
        #expect(
            feed.pages.map { $0.url.query ?? "" } == [
                "size=4&style=cursor", "cursor=7&size=4&style=cursor", "cursor=3&size=4&style=cursor",
            ])
    }

    @Test("L1 page=N pages until an empty page")
    func pageNumbers() async throws {
        let numbered = service.pagedList(
            startingAt: feed(["style": "number", "size": "4"]), items: [Item].self, nextPage: .pageNumber())
        await loadAll(numbered)
        #expect(numbered.state.value.items.count == 10 && !numbered.state.value.hasMore)
        #expect(try await stats().requests == 4)
    }

    @Test("L5 a refresh when nothing changed costs one request: a real 304 keeps every page")
    func refreshNotModified() async throws {
        let repos = list(["size": "3"])
        await loadAll(repos)
        let before = try await stats()

        try #require(await fixture.completion(of: repos.refresh()) != nil)

        let after = try await stats()
        #expect(after.requests == before.requests + 1 && after.notModified == before.notModified + 1)
        #expect(repos.state.value.items.count == 10 && repos.state.value.pageCount == 4)
    }

    @Test("L5 a refresh after the feed changed keeps the new first page; the next page loads again on demand")
    func refreshNewContent() async throws {
        let repos = list(["size": "3"])
        await loadAll(repos, limit: 2)
        try await send("/feed/bump")

        try #require(await fixture.completion(of: repos.refresh()) != nil)
        #expect(repos.state.value.items.map(\.id) == [11, 10, 9])
        #expect(repos.state.value.pageCount == 1 && repos.state.value.hasMore)

        let before = try await stats()
        try #require(await fixture.completion(of: try #require(repos.loadMore())) != nil)
        #expect(repos.state.value.items.map(\.id) == [11, 10, 9, 8, 7, 6])
        #expect(try await stats().requests == before.requests + 1)
    }

    @Test("L6 a maximum page count drops the oldest pages as new ones load")
    func maximumPageCount() async throws {
        let repos = list(["size": "3"], options: .init(maximumPageCount: 2))
        await loadAll(repos)
        #expect(repos.state.value.items.map(\.id) == [4, 3, 2, 1])
        #expect(repos.pages.map { $0.url.query ?? "" } == ["page=3&size=3", "page=4&size=3"])
    }

    @Test("L7 an item pushed onto the next page while paging appears once with an id, twice without")
    func duplicates() async throws {
        let unique = list(["size": "3"], options: .init(id: \.id))
        let plain = service.pagedList(startingAt: feed(["size": "3", "total": "10"]), items: [Item].self)
        try #require(await fixture.completion(of: try #require(unique.loadMore())) != nil)
        try #require(await fixture.completion(of: try #require(plain.loadMore())) != nil)
        try await send("/feed/bump")
        try #require(await fixture.completion(of: try #require(unique.loadMore())) != nil)
        try #require(await fixture.completion(of: try #require(plain.loadMore())) != nil)

        #expect(unique.state.value.items.map(\.id) == [10, 9, 8, 7, 6])
        #expect(plain.state.value.items.map(\.id) == [10, 9, 8, 8, 7, 6])
    }

    @Test("L3 a page that fails over HTTP is the list's error until its retry succeeds")
    func pageErrorAndRetry() async throws {
        let repos = list(["size": "3"])
        try #require(await fixture.completion(of: try #require(repos.loadMore())) != nil)
        try await send("/feed/fail", ["page": "2"])
        try #require(await fixture.completion(of: try #require(repos.loadMore())) != nil)
        #expect(repos.state.value.latestError?.httpStatusCode == 500)
        #expect(repos.state.value.latestError?.entity?.bodyText == "feed page failed")
        #expect(repos.state.value.items.count == 3)

        try #require(await fixture.completion(of: try #require(repos.retry())) != nil)
        #expect(repos.state.value.latestError == nil && repos.state.value.items.count == 6)
    }

    @Test("L2 a second list shares the pages: a fresh page costs nothing, a stale one revalidates by ETag")
    func sharedPages() async throws {
        let first = list(["size": "3"])
        await loadAll(first, limit: 3)
        let before = try await stats()

        let second = list(["size": "3"])
        #expect(second.state.value.items.count == 3)
        #expect(second.loadMore() == nil)  // page 2 is fresh in the service
        #expect(second.state.value.items.count == 6)
        #expect(try await stats().requests == before.requests)

        try #require(first.pages.dropFirst(2).first).invalidate()
        try #require(await fixture.completion(of: try #require(second.loadMore())) != nil)
        #expect(second.state.value.items.count == 9)
        #expect(try await stats().notModified == before.notModified + 1)
    }
}
