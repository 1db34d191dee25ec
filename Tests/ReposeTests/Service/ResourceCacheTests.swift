import Foundation
import Testing

@testable import Repose

@MainActor
@Suite("ResourceCache: identity by path and amortised clean-up", .checksLifetimes)
struct ResourceCacheTests {
    let harness = Harness()
    var service: Service { harness.service }

    @Test("D12 a path looked up again gives the same resource, with or without its leading slash")
    func knownPathIdentity() {
        let first = service.resource("/users/42")
        #expect(service.resource("/users/42") === first)
        #expect(service.resource("users/42") === first)
        #expect(service.resource("/users/42?x") !== first)
        #expect(service.resource("/users/42?x").url.absoluteString == "https://zingle.frotz/v1/users/42%3Fx")
    }

    @Test("D13 a known path whose resource was released gives a fresh resource with the same URL")
    func knownPathAfterRelease() {
        weak let released = service.resource("/gone")
        let url = service.resource("/gone").url
        service.flushUnusedResources()
        #expect(released == nil)
        #expect(service.resource("/gone").url == url)
    }

    @Test("D13 resources the app holds keep their identity while many others come and go past the limit")
    func heldResourcesKeepIdentity() {
        service.cachedResourceCountLimit = 10
        let held = (0..<50).map { service.resource("/held/\($0)") }
        for index in 0..<1_000 {
            _ = service.resource("/passing/\(index)")
        }
        for (index, resource) in held.enumerated() {
            #expect(service.resource("/held/\(index)") === resource)
        }
    }

    @Test("D13 dead entries are purged even while the app holds more unobserved resources than the limit")
    func deadEntriesArePurged() {
        service.cachedResourceCountLimit = 10
        let held = (0..<50).map { service.resource("/held/\($0)") }
        for index in 0..<1_000 {
            _ = service.resource("/passing/\(index)")
        }
        // Live: the 50 held ones. Dead weak entries may accumulate up to twice what survived the last purge.
        withExtendedLifetime(held) {
            #expect(service.resourceCache.weakEntryCount <= 2 * (held.count + 10) + 10)
            #expect(service.resourceCache.stronglyHeldCount <= 2 * (held.count + 10))
        }
    }

    @Test("D13 the table of known paths stays bounded by the live resources")
    func knownPathsBounded() {
        service.cachedResourceCountLimit = 10
        for index in 0..<1_000 {
            _ = service.resource("/passing/\(index)")
        }
        let cache = service.resourceCache
        #expect(cache.knownPathCount <= 2 * max(10, cache.stronglyHeldCount + cache.weakEntryCount))
    }
}
