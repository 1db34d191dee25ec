import Foundation
import ReposeTesting
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// The smallest cache an app can write: no work queue of its own, no timestamp refresh.
private final class MinimalCache: EntityCache, @unchecked Sendable {
    // Safe: `entries` is only touched under the lock.
    private let lock = NSLock()
    private var entries: [String: Entity<Any>] = [:]

    @MainActor func key(for resource: Resource) -> String? { resource.url.absoluteString }
    func readEntity(forKey key: String) -> Entity<Any>? { lock.withLock { entries[key] } }
    func writeEntity(_ entity: Entity<Any>, forKey key: String) { lock.withLock { entries[key] = entity } }
    func removeEntity(forKey key: String) { lock.withLock { entries[key] = nil } }
    func removeAllEntities() { lock.withLock { entries.removeAll() } }
}

/// A cache that keeps accounts and stages apart itself, as `FileEntityCache` does.
private final class PartitionedCache: EntityCache, @unchecked Sendable {
    // Safe: only touched on the main actor.
    var partition: String?

    @MainActor func key(for resource: Resource) -> String? { "\(partition ?? "-") \(resource.url.path)" }
    @MainActor func key(for resource: Resource, at stage: PipelineStageKey) -> String? {
        key(for: resource).map { "\(stage.name) \($0)" }
    }
    @MainActor func switchPartition(to partition: String?) { self.partition = partition }
    func readEntity(forKey key: String) -> Entity<Any>? { nil }
    func writeEntity(_ entity: Entity<Any>, forKey key: String) {}
    func removeEntity(forKey key: String) {}
    func removeAllEntities() {}
}

@Suite("EntityCache defaults")
struct EntityCacheDefaultsTests {
    @Test("K8 a cache without its own queue or timestamp refresh gets a shared serial queue and read-then-write")
    func defaults() {
        let cache = MinimalCache()
        cache.writeEntity(Entity<Any>(content: "x", contentType: "text/plain", timestamp: 10), forKey: "k")
        cache.refreshEntity(forKey: "k", confirmedAt: 20, headers: ["cache-control": "no-cache"])
        #expect(cache.readEntity(forKey: "k")?.timestamp == 20)
        #expect(cache.readEntity(forKey: "k")?.header(forKey: "Cache-Control") == "no-cache")
        #expect(cache.workQueue === MinimalCache().workQueue)
        cache.refreshEntity(forKey: "missing", confirmedAt: 30, headers: [:])
        #expect(cache.readEntity(forKey: "missing") == nil)
    }

    @Test("K7 a cache without its own removeEntities(forURLsMatching:) is emptied by it: more removed, never less")
    func defaultPatternRemovalEmptiesTheCache() {
        let cache = MinimalCache()
        cache.writeEntity(Entity<Any>(content: "x", contentType: "text/plain"), forKey: "https://x.test/kept")
        cache.removeEntities(forURLsMatching: { _ in false })
        #expect(cache.readEntity(forKey: "https://x.test/kept") == nil)
    }

    @Test(
        "T1 a cache that cannot keep accounts apart is emptied when the service's account changes, not when it is set again"
    )
    @MainActor
    func defaultPartitionSwitchEmptiesTheCache() {
        let cache = MinimalCache()
        let service = Service(baseURL: "https://x.test", options: .init(networking: StubNetworkingProvider()))
        service.configure { $0.pipeline[.rawData].cacheUsing(cache) }
        let entity = Entity<Any>(content: "ada's", contentType: "text/plain")
        cache.writeEntity(entity, forKey: "https://x.test/me")
        service.partition = "ada"
        cache.workQueue.sync {}
        #expect(cache.readEntity(forKey: "https://x.test/me") == nil)

        cache.writeEntity(entity, forKey: "https://x.test/me")
        service.partition = "ada"
        cache.workQueue.sync {}
        #expect(cache.readEntity(forKey: "https://x.test/me") != nil)
    }

    @Test(
        "T1 T10 the service's account and the pipeline's stage reach a cache's keys through the protocol, no downcast")
    @MainActor
    func partitionAndStageReachTheKeys() {
        let cache = PartitionedCache()
        let service = Service(baseURL: "https://x.test", options: .init(networking: StubNetworkingProvider()))
        service.configure { $0.pipeline[.model].cacheUsing(cache) }
        service.partition = "grace"
        let resource = service.resource("/me")
        #expect(cache.partition == "grace")
        #expect(resource.configuration.pipeline.cacheTargets(for: resource).map(\.key) == ["model grace /me"])
        #expect(MinimalCache().key(for: resource, at: .model) == "https://x.test/me")  // the default: key(for:)
    }
}
