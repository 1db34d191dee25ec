import Foundation
import Testing

@testable import Repose
@testable import ReposeStorage
@testable import ReposeTestSupport

@MainActor
@Suite("Persistent caches follow what happens to their resources", .checksLifetimes)
struct CacheMaintenanceTests {
    let harness = Harness()
    let cache = RecordingCache()
    var resource: Resource { harness.service.resource("/a/b") }

    init() {
        let cache = self.cache
        harness.service.configure { $0.pipeline[.rawData].cacheUsing(cache) }
    }

    private func loadFromNetwork(_ text: String, etag: String = "\"v1\"") async {
        await resource.cacheCheckCompleted()
        await harness.answer(resource.load(), text: text, headers: ["ETag": etag])
    }

    @Test("K7 wipe() removes the resource's entry, so the wiped data does not come back from the cache")
    func wipeRemovesEntry() async {
        await loadFromNetwork("secret")
        #expect(cache.entry("/v1/a/b") != nil)
        resource.wipe()
        await resource.cacheCheckCompleted()
        #expect(resource.latestData == nil)
        #expect(cache.entry("/v1/a/b") == nil)
        #expect(cache.calls.suffix(2) == ["remove /v1/a/b", "read /v1/a/b"])  // removed before the next read
    }

    @Test("K7 wipeResources(matching:) removes the entries of the resources it wipes, and only those")
    func wipeByPatternRemovesEntries() async {
        await loadFromNetwork("mine")
        let other = harness.service.resource("/other")
        await other.cacheCheckCompleted()
        await harness.answer(other.load(), text: "kept")
        harness.service.wipeResources(matching: "/a/**")
        #expect(cache.entry("/v1/a/b") == nil)
        #expect(cache.entry("/v1/other") != nil)
    }

    @Test("K8 a 304 refreshes the stored entry's timestamp through refreshEntity, without a write")
    func notModifiedRefreshesTimestamp() async {
        await loadFromNetwork("same")
        harness.clock.now = 2000
        await harness.answer(resource.load(), status: 304)
        #expect(cache.calls.suffix(1) == ["touch /v1/a/b 2000"])
        #expect(cache.entry("/v1/a/b")?.timestamp == 2000)
        #expect(cache.calls.filter { $0.hasPrefix("write") }.count == 1)
    }

    @Test("K1 a local override removes the stored entry, so the next launch does not bring older server data back")
    func overrideRemovesEntry() async throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("repose-override-relaunch-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let entry = folder.appendingPathComponent(
            FileEntityCache.fileName(for: "https://zingle.frotz/v1/a/b"))
        do {  // first launch: server data goes to disk, then the app edits it here; then the launch ends
            let first = Harness()
            let cache = FileEntityCache(directory: folder)
            first.service.configure { $0.pipeline[.rawData].cacheUsing(cache) }
            let resource = first.service.resource("/a/b")
            await resource.cacheCheckCompleted()
            await first.answer(resource.load(), text: "from the server", headers: ["ETag": "\"v1\""])
            cache.workQueue.sync {}  // the write was queued before the response reached the main actor
            #expect(FileManager.default.fileExists(atPath: entry.path))
            resource.overrideLocalContent(with: "edited here")
            #expect(resource.text == "edited here")
            cache.workQueue.sync {}  // so was the removal
        }

        // The relaunch: a new service and a new cache over the same folder.
        let second = Harness()
        second.service.configure { $0.pipeline[.rawData].cacheUsing(FileEntityCache(directory: folder)) }
        let resource = second.service.resource("/a/b")
        let observer = RecordingObserver()
        resource.addObserver(observer)
        await resource.cacheCheckCompleted()
        #expect(!FileManager.default.fileExists(atPath: entry.path))
        #expect(resource.latestData == nil)
        #expect(observer.events == ["observerAdded"])
        #expect(resource.loadIfNeeded() != nil)  // nothing stored, so the first use goes to the network
        #expect(second.network.sent.count == 1)
    }
}
