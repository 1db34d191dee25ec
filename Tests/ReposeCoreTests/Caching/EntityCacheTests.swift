import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@MainActor
@Suite("Persistent entity caches", .checksLifetimes)
struct EntityCacheTests {
    let harness = Harness()
    let cache = RecordingCache()
    var resource: Resource { harness.service.resource("/a/b") }

    init() {
        let cache = self.cache
        harness.service.configure { $0.pipeline[.rawData].cacheUsing(cache) }
    }

    @Test("H1 the resource starts empty and the cached entity arrives later as newData(cache)")
    func cachedEntityArrivesAsynchronously() async {
        cache.seed("/v1/a/b", content: Data("cached".utf8), timestamp: 900)
        let observer = RecordingObserver()
        resource.addObserver(observer)
        #expect(resource.latestData == nil)
        await resource.cacheCheckCompleted()
        #expect(observer.events == ["observerAdded", "newData(cache)"])
        #expect(resource.text == "cached")  // H9: the rawData hit went through the later stages (text decoding)
        #expect(harness.network.sent.isEmpty)
    }

    @Test("H4 H5 loadIfNeeded waits for the cache; a fresh hit succeeds without the network, then needs no load")
    func freshHitConfirmsWithoutNetwork() async {
        cache.seed("/v1/a/b", content: Data("cached".utf8), timestamp: 995)
        let observer = RecordingObserver()
        var loadingAt: [String: Bool] = [:]
        observer.onChange = { resource, event in loadingAt["\(event)"] = resource.isLoading }
        resource.addObserver(observer)
        let first = resource.loadIfNeeded()
        #expect(resource.loadIfNeeded() === first)  // called repeatedly: still the one waiting load
        let info = await first?.responseInfo
        #expect(info?.response.entity?.content as? String == "cached")
        // No `requested`: nothing was asked of the network.
        #expect(observer.events == ["observerAdded", "newData(cache)", "notModified"])
        #expect(loadingAt["newData(cache)"] == true)
        #expect(loadingAt["notModified"] == false)
        #expect(harness.network.sent.isEmpty)
        #expect(resource.loadIfNeeded() == nil)
    }

    @Test("H6 a cache miss goes to the network: requested, then newData(network)")
    func missGoesToNetwork() async {
        let observer = RecordingObserver()
        resource.addObserver(observer)
        let request = resource.loadIfNeeded()
        await resource.cacheCheckCompleted()
        #expect(harness.network.sent.count == 1)
        await harness.network.respond(status: 200, headers: ["Content-Type": "text/plain"], body: Data("net".utf8))
        _ = await request?.responseInfo
        #expect(observer.events == ["observerAdded", "requested", "newData(network)"])
        #expect(resource.text == "net")
    }

    @Test("H4 a stale hit is shown, then refreshed from the network: newData(cache), requested, newData(network)")
    func staleHitThenNetwork() async {
        cache.seed("/v1/a/b", content: Data("old".utf8), timestamp: 100)
        let observer = RecordingObserver()
        var loadingAt: [String: Bool] = [:]
        observer.onChange = { resource, event in loadingAt["\(event)"] = resource.isLoading }
        resource.addObserver(observer)
        let request = resource.loadIfNeeded()
        #expect(resource.isLoading)
        await resource.cacheCheckCompleted()
        #expect(resource.text == "old")
        #expect(harness.network.sent.count == 1)
        await harness.network.respond(status: 200, headers: ["Content-Type": "text/plain"], body: Data("new".utf8))
        _ = await request?.responseInfo
        #expect(resource.text == "new")
        #expect(observer.events == ["observerAdded", "newData(cache)", "requested", "newData(network)"])
        #expect(loadingAt["newData(cache)"] == true)
        #expect(loadingAt["requested"] == true)
        #expect(loadingAt["newData(network)"] == false)
    }

    @Test("H11 each success is written to every stage's cache with that stage's output; failures are not")
    func writesEveryStage() async {
        let parsed = RecordingCache(name: "decoding")
        harness.service.configure { $0.pipeline[.decoding].cacheUsing(parsed) }
        await resource.cacheCheckCompleted()
        await harness.answer(resource.load(), text: "fresh")
        #expect(cache.entry("/v1/a/b")?.content as? Data == Data("fresh".utf8))
        #expect(parsed.entry("/v1/a/b")?.content as? String == "fresh")
        await harness.answer(resource.load(), status: 500, text: "boom")
        #expect(cache.entry("/v1/a/b")?.content as? Data == Data("fresh".utf8))
        #expect(cache.calls.filter { $0.hasPrefix("write") } == ["write /v1/a/b"])
    }

    @Test("H8 when several stages have caches, the latest stage's hit wins")
    func latestStageWins() async {
        let decoded = RecordingCache(name: "decoding")
        decoded.seed("/v1/a/b", content: "from decoding", timestamp: 990)
        cache.seed("/v1/a/b", content: Data("from rawData".utf8), timestamp: 990)
        harness.service.configure { $0.pipeline[.decoding].cacheUsing(decoded) }
        await resource.cacheCheckCompleted()
        #expect(resource.text == "from decoding")
    }

    @Test("H9 H10 a hit runs only through later stages, and a hit those stages reject falls back to earlier caches")
    func laterStagesAndFallback() async {
        let parsing = RecordingCache(name: "parsing")
        parsing.seed("/v1/a/b", content: 17, timestamp: 990)  // not text: the model stage below rejects it
        cache.seed("/v1/a/b", content: Data("raw".utf8), timestamp: 990)
        harness.service.configure {
            $0.pipeline[.parsing].cacheUsing(parsing)
            $0.pipeline[.model].add(
                ResponseContentTransformer<String, String> { entity in entity.content + "+model" })
        }
        await resource.cacheCheckCompleted()
        #expect(resource.text == "raw+model")  // 17 failed the model stage; the rawData hit went through all
    }

    @Test("H14 a small response that fills a cache is processed off the main queue even when delivered there")
    func cachingResponseLeavesMainQueue() async {
        let recorder = RecordingTransformer()
        harness.service.configure { $0.pipeline[.model].add(recorder) }
        await resource.cacheCheckCompleted()
        await harness.answer(resource.load(), text: "x")  // answered from this main-actor test: on the main queue
        #expect(recorder.ranOnMainQueue == [false])
        #expect(cache.calls.contains("write /v1/a/b"))
        #expect(cache.callsOffQueue == 0)
    }

    @Test("H14 cache calls run on the cache's work queue, never on the main actor; a nil key opts out")
    func workQueueAndOptOut() async {
        let optingOut = RecordingCache(name: "opt-out", excluding: ["/v1/private"])
        harness.service.configure { $0.pipeline[.decoding].cacheUsing(optingOut) }
        await resource.cacheCheckCompleted()
        await harness.answer(resource.load(), text: "x")
        let hidden = harness.service.resource("/private")
        await hidden.cacheCheckCompleted()
        await harness.answer(hidden.load(), text: "secret")
        #expect(cache.callsOffQueue == 0 && optingOut.callsOffQueue == 0)
        #expect(!optingOut.calls.isEmpty)
        #expect(!optingOut.calls.contains { $0.hasSuffix("/v1/private") })
    }

    @Test("H14 no cache method but key(for:) runs on the main thread, whatever the app does")
    func neverOnTheMainThread() async throws {
        cache.seed("/v1/a/b", content: Data("cached".utf8), timestamp: 995)
        _ = await resource.loadIfNeeded()?.responseInfo  // fresh hit
        harness.clock.now += 1000
        let stale = resource.loadIfNeeded()  // stale: the network
        await harness.answer(try #require(stale), text: "v1", headers: ["ETag": "\"1\""])
        await harness.answer(resource.load(), status: 304)
        await harness.answer(resource.load(), text: "private", headers: ["Cache-Control": "no-store"])
        resource.overrideLocalContent(with: "local")
        resource.wipe()
        await resource.cacheCheckCompleted()
        harness.service.wipeResources(matching: "/a/*")
        harness.service.wipeResources()
        let calls = cache.calls
        for expected in ["read", "write", "touch", "remove", "removeMatching", "removeAll"] {
            #expect(calls.contains { $0 == expected || $0.hasPrefix(expected + " ") }, "no \(expected) call")
        }
        #expect(cache.callsOnMainThread == 0)
        #expect(cache.callsOffQueue == 0)
    }
}
