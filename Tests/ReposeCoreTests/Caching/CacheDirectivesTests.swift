import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@MainActor
@Suite("Responses that must not be stored, and cached times from the future", .checksLifetimes)
struct CacheDirectivesTests {
    let harness = Harness()
    let raw = RecordingCache(name: "raw")
    let decoded = RecordingCache(name: "decoded")
    var resource: Resource { harness.service.resource("/a/b") }

    init() {
        let (raw, decoded) = (self.raw, self.decoded)
        harness.service.configure {
            $0.pipeline[.rawData].cacheUsing(raw)
            $0.pipeline[.decoding].cacheUsing(decoded)
        }
    }

    @Test(
        "K6 Cache-Control: no-store is written to no cache, and the stored entry goes",
        arguments: ["no-store", "No-Store", "private, no-store", "max-age=0 ,  NO-STORE", "no-store=\"x\", public"])
    func noStoreIsNeverWritten(header: String) async {
        raw.seed("/v1/a/b", content: Data("old".utf8), timestamp: 100)
        decoded.seed("/v1/a/b", content: "old", timestamp: 100)
        await resource.cacheCheckCompleted()
        await harness.answer(resource.load(), text: "secret", headers: ["Cache-Control": header])
        #expect(resource.text == "secret")  // shown, just not stored
        #expect(raw.entry("/v1/a/b") == nil)
        #expect(decoded.entry("/v1/a/b") == nil)
        #expect(!raw.calls.contains { $0.hasPrefix("write") })
        #expect(!decoded.calls.contains { $0.hasPrefix("write") })
    }

    @Test(
        "K6 other Cache-Control directives still store", arguments: ["no-cache", "max-age=60", "private", "no-storex"])
    func otherDirectivesStore(header: String) async {
        await resource.cacheCheckCompleted()
        await harness.answer(resource.load(), text: "kept", headers: ["Cache-Control": header])
        #expect(raw.entry("/v1/a/b")?.content as? Data == Data("kept".utf8))
        #expect(decoded.entry("/v1/a/b")?.content as? String == "kept")
    }

    @Test("A cached timestamp in the future is taken as now, so the entry does not stay fresh forever")
    func futureTimestampIsNow() async {
        raw.seed("/v1/a/b", content: Data("from the future".utf8), timestamp: 1_000_000)
        await resource.cacheCheckCompleted()
        #expect(resource.text == "from the future")
        #expect(resource.latestData?.timestamp == harness.clock.now)
        harness.clock.now += resource.configuration.expirationTime + 1
        #expect(!resource.isUpToDate)
    }
}
