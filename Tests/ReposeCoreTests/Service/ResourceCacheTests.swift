import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@MainActor
@Suite("ResourceTable: identity by path and amortised clean-up", .checksLifetimes)
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
            #expect(service.resourceTable.weakEntryCount <= 2 * (held.count + 10) + 10)
            #expect(service.resourceTable.stronglyHeldCount <= 2 * (held.count + 10))
        }
    }

    @Test("D13 the table keeps its books in its entries: a resource stores at most 10 members, none of them its")
    func resourceKeepsNoTableBooks() {
        let resource = service.resource("/kept")
        let members = Mirror(reflecting: resource).children.compactMap(\.label)
        #expect(members.count <= 10, "\(members)")
        #expect(!members.contains { $0.localizedCaseInsensitiveContains("poll") })
        #expect(!members.contains { $0.localizedCaseInsensitiveContains("weak") })
        #expect(!members.contains { $0.localizedCaseInsensitiveContains("candidate") })
    }

    @Test("D13 the table of known paths stays bounded by the live resources")
    func knownPathsBounded() {
        service.cachedResourceCountLimit = 10
        for index in 0..<1_000 {
            _ = service.resource("/passing/\(index)")
        }
        let cache = service.resourceTable
        #expect(cache.knownPathCount <= 2 * max(10, cache.stronglyHeldCount + cache.weakEntryCount))
    }
}

@MainActor
@Suite("ResourceTable: unused resources are found without rescanning used ones", .checksLifetimes)
struct UnusedResourceTrackingTests {
    let harness = Harness()
    var service: Service { harness.service }

    final class Owner {}

    @Test("D13 past the limit, observed resources are not examined again on every pass")
    func observedResourcesAreNotRescanned() {
        service.cachedResourceCountLimit = 10
        let owner = Owner()
        let count = 10_000
        for index in 0..<count {
            service.resource("/observed/\(index)").addObserver(owner: owner) { _, _ in }
        }
        // Each insertion past the limit looks at the resources noted since the one before: the 10 before it for the
        // first, then one each, still in the processor's cache. The sweep for observers whose owners died
        // unannounced looks at one more every eighth. (Whole passes past the limit, doubling, looked at 12,287.)
        let cache = service.resourceTable
        let insertions = count - 10
        #expect(cache.sweptCount <= insertions / ResourceTable.insertsPerSweptResource)
        #expect(cache.examinedCount == 10 + (insertions - 1) + cache.sweptCount)
        #expect(cache.stronglyHeldCount == count)
    }

    @Test("D13 past the limit, a resource whose last request completed is released")
    func releasedAfterRequest() async {
        service.cachedResourceCountLimit = 10
        weak var loaded: Resource?
        weak var request: Request?
        do {
            let resource = service.resource("/loaded")
            request = resource.load()
            loaded = resource
        }
        for index in 0..<20 {
            _ = service.resource("/waiting/\(index)")
        }
        #expect(loaded != nil, "its request keeps it until it completes")
        if let request { await harness.answer(request, text: "ok") }
        for index in 0..<20 {
            _ = service.resource("/passing/\(index)")
        }
        #expect(loaded == nil)
    }

    @Test("D13 past the limit, a resource whose observers were removed is released")
    func releasedAfterObserversRemoved() {
        service.cachedResourceCountLimit = 10
        let owner = Owner()
        weak var observed: Resource?
        do {
            let resource = service.resource("/observed")
            resource.addObserver(owner: owner) { _, _ in }
            observed = resource
        }
        for index in 0..<20 {
            _ = service.resource("/passing/\(index)")
        }
        #expect(observed != nil)
        observed?.removeObservers(ownedBy: owner)
        for index in 20..<40 {
            _ = service.resource("/passing/\(index)")
        }
        #expect(observed == nil)
    }

    @Test("D13 past the limit, resources whose observers' owners died unannounced are released by a later pass")
    func releasedAfterOwnersDied() {
        service.cachedResourceCountLimit = 10
        var owner: Owner? = Owner()
        weak var first: Resource?
        do {
            let resources = (0..<10).map { service.resource("/orphan/\($0)") }
            for resource in resources { resource.addObserver(owner: owner!) { _, _ in } }
            first = resources[0]
        }
        owner = nil
        #expect(first != nil, "nothing has looked since the owner died")
        for index in 0..<1_000 {
            _ = service.resource("/passing/\(index)")
        }
        #expect(first == nil)
    }

    @Test("D13 a flush releases candidates the next pass would have looked at")
    func flushReleasesPendingCandidates() {
        weak let unused = service.resource("/unused")
        service.flushUnusedResources()
        #expect(unused == nil)
    }
}
