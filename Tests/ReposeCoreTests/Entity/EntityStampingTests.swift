import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// A transformer that makes a new entity, as an app's own might: without a timestamp.
private struct FreshEntityTransformer: ResponseTransformer {
    func process(_ response: Response) -> Response {
        guard case .success = response else { return response }
        return .success(Entity<Any>(content: "made anew", contentType: "text/plain"))
    }
}

@MainActor
@Suite("W8 entities made without a timestamp are stamped with the service's clock", .checksLifetimes)
struct EntityStampingTests {
    let harness = Harness()
    let cache = RecordingCache()
    var resource: Resource { harness.service.resource("/a") }

    @Test("W8 a hand-made entity in a cache is new as of the read: a fresh hit needs no load")
    func cacheHitStamped() async {
        let cache = self.cache
        harness.service.configure { $0.pipeline[.rawData].cacheUsing(cache) }
        cache.seed("/v1/a", content: Data("by hand".utf8), timestamp: 0)  // Entity's default timestamp
        harness.clock.now = 1_010
        let request = resource.loadIfNeeded()
        await resource.cacheCheckCompleted()
        #expect(harness.network.sent.isEmpty)
        await harness.network.failPending()  // a load a regression sends fails now rather than wait for ever
        _ = await request?.responseInfo
        #expect(resource.text == "by hand")
        #expect(resource.timestamp == 1_010)
        #expect(resource.isUpToDate)
        #expect(harness.network.sent.isEmpty)
    }

    @Test("W8 an entity a transformer made anew is written to its stage's cache with the time it arrived")
    func cacheWriteStamped() async {
        let cache = self.cache
        harness.service.configure {
            $0.pipeline[.model].add(FreshEntityTransformer())
            $0.pipeline[.model].cacheUsing(cache)
        }
        harness.clock.now = 1_020
        await harness.answer(resource.load(), text: "raw")
        #expect(cache.entry("/v1/a")?.timestamp == 1_020)
        #expect(resource.latestData?.timestamp == 1_020)
    }

    @Test("W8 overrideLocalData stamps an entity without a timestamp, and keeps one that has its own")
    func overrideStamped() {
        harness.clock.now = 1_030
        resource.overrideLocalData(with: Entity<Any>(content: "x", contentType: "text/plain"))
        #expect(resource.latestData?.timestamp == 1_030)
        resource.overrideLocalData(with: Entity<Any>(content: "y", contentType: "text/plain", timestamp: 1_025))
        #expect(resource.latestData?.timestamp == 1_025)
    }
}
