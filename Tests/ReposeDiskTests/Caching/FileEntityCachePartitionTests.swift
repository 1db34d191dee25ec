import Foundation
import ReposeStorage
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// Which resources a `FileEntityCache` stores, and for whom: its partition and its `storing:` filter, through a
/// service.
@MainActor
@Suite("FileEntityCache: partitions and the storing filter", .checksLifetimes)
final class FileEntityCachePartitionTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("repose-partition-\(UUID().uuidString)")
    let harness = Harness()

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    private func load(_ path: String, into cache: FileEntityCache, text: String) async {
        let resource = harness.service.resource(path)
        await resource.cacheCheckCompleted()
        await harness.answer(resource.load(), text: text)
        cache.workQueue.sync {}
    }

    @Test("one partition's entries are misses for another and for none; its own come back")
    func partitionsAreSeparate() async throws {
        let cache = FileEntityCache(directory: folder)
        cache.partition = "alice"
        harness.service.configure { $0.pipeline[.rawData].cacheUsing(cache) }
        await load("/me", into: cache, text: "alice's data")
        let aliceKey = try #require(cache.key(for: harness.service.resource("/me")))

        cache.partition = "bob"
        let bobKey = try #require(cache.key(for: harness.service.resource("/me")))
        #expect(bobKey != aliceKey)
        #expect(cache.workQueue.sync { cache.readEntity(forKey: bobKey) } == nil)
        cache.partition = nil
        let noneKey = try #require(cache.key(for: harness.service.resource("/me")))
        #expect(cache.workQueue.sync { cache.readEntity(forKey: noneKey) } == nil)
        cache.partition = "alice"
        let read = cache.workQueue.sync { cache.readEntity(forKey: aliceKey) }
        #expect(read?.content as? Data == Data("alice's data".utf8))
    }

    @Test("H14 resources the storing filter rejects get no key: never read, never written")
    func storingFilter() async throws {
        let cache = FileEntityCache(directory: folder, storing: { !$0.url.path.contains("/private/") })
        harness.service.configure { $0.pipeline[.rawData].cacheUsing(cache) }
        #expect(cache.key(for: harness.service.resource("/private/token")) == nil)
        await load("/private/token", into: cache, text: "secret")
        await load("/public/news", into: cache, text: "news")
        let stored = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(stored.count == 1)
        #expect(!stored.contains { $0.hasSuffix(".tmp") })
    }
}
