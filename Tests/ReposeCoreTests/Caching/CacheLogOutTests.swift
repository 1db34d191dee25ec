import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@MainActor
@Suite("Log-out empties every cache of a service", .checksLifetimes)
struct CacheLogOutTests {
    let harness = Harness()
    let shared = RecordingCache(name: "shared")
    let privateCache = RecordingCache(name: "private")

    init() {
        let (shared, privateCache) = (self.shared, self.privateCache)
        harness.service.configure { $0.pipeline[.rawData].cacheUsing(shared) }
        harness.service.configure("/me/**") { $0.pipeline[.decoding].cacheUsing(privateCache) }
    }

    @Test("K7 wipeResources() removes every entry of every cache, including one no resource has used in this launch")
    func logOutEmptiesEveryCache() async {
        shared.seed("/v1/feed", content: Data("feed".utf8), timestamp: 990)
        privateCache.seed("/v1/me/inbox", content: "mail", timestamp: 990)
        harness.service.wipeResources()
        #expect(shared.entry("/v1/feed") == nil)
        #expect(privateCache.entry("/v1/me/inbox") == nil)
        #expect(shared.calls == ["removeAll"])
        #expect(privateCache.calls == ["removeAll"])
        #expect(shared.callsOffQueue == 0 && privateCache.callsOffQueue == 0)
    }

    @Test("K7 after wipeResources() no read through the service sees an old entry, however late the removal runs")
    func logOutLandsBeforeLaterReads() async {
        shared.seed("/v1/feed", content: Data("yesterday's user".utf8), timestamp: 990)
        let release = shared.blockWorkQueue()  // nothing queued on the cache runs until released
        harness.service.wipeResources()
        let feed = harness.service.resource("/feed")
        let observer = RecordingObserver()
        feed.addObserver(observer)  // starts a cache read, queued behind the removal
        release()
        await feed.cacheCheckCompleted()
        #expect(feed.latestData == nil)
        #expect(observer.events == ["observerAdded"])
        #expect(shared.calls == ["removeAll", "read /v1/feed"])
    }

    @Test("K7 wipeResources(matching:) also removes entries of resources no longer in memory, and only matching ones")
    func patternWipeReachesReleasedResources() async {
        shared.seed("/v1/a/gone", content: Data("old".utf8), timestamp: 990)
        shared.seed("/v1/b/kept", content: Data("kept".utf8), timestamp: 990)
        harness.service.wipeResources(matching: "/a/**")
        #expect(shared.entry("/v1/a/gone") == nil)
        #expect(shared.entry("/v1/b/kept") != nil)
        harness.service.wipeResources(withURLsMatching: { $0.path.hasSuffix("/kept") })
        #expect(shared.entry("/v1/b/kept") == nil)
    }
}
