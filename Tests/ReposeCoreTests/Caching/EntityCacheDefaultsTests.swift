import Foundation
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
}
