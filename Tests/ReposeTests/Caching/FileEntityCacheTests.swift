import Foundation
import Testing

@testable import Repose

@MainActor
@Suite("FileEntityCache", .checksLifetimes)
struct FileEntityCacheTests {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("repose-file-cache-\(UUID().uuidString)")

    func service(_ harness: Harness, cache: FileEntityCache? = nil) -> Service {
        let cache = cache ?? FileEntityCache(directory: folder)
        harness.service.configure { $0.pipeline[.rawData].cacheUsing(cache) }
        return harness.service
    }

    @Test("H1 data loaded in one launch is shown from disk in the next, before any request")
    func survivesRelaunch() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = Harness()
        let firstCache = FileEntityCache(directory: folder)
        let firstResource = service(first, cache: firstCache).resource("/users/ada")
        await firstResource.cacheCheckCompleted()
        await first.answer(firstResource.load(), contentType: "application/json", text: #"{"name":"Ada"}"#)
        firstCache.workQueue.sync {}  // the write was queued before the response reached the main actor

        let second = Harness()
        let secondResource = service(second).resource("/users/ada")
        await secondResource.cacheCheckCompleted()
        #expect(secondResource.jsonDict["name"] as? String == "Ada")
        #expect(second.network.sent.isEmpty)
    }

    @Test("a corrupt cache file is a miss, is removed, and never crashes")
    func corruptFile() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let harness = Harness()
        let resource = service(harness).resource("/broken")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent(FileEntityCache.fileName(for: resource.url.absoluteString))
        try Data("{not json at all".utf8).write(to: file)
        await resource.cacheCheckCompleted()
        #expect(resource.latestData == nil)
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test("content that is neither Data nor String is not written")
    func onlyBytesAndText() {
        let cache = FileEntityCache(directory: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        cache.writeEntity(Entity<Any>(content: ["a": 1], contentType: "application/json"), forKey: "k")
        cache.writeEntity(Entity<Any>(content: "text", contentType: "text/plain", timestamp: 5), forKey: "t")
        #expect(cache.readEntity(forKey: "k") == nil)
        let text = cache.readEntity(forKey: "t")
        #expect(text?.content as? String == "text")
        #expect(text?.timestamp == 5)
    }
}
