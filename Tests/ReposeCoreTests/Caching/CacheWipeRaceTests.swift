import Dispatch
import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// A wipe that lands while a resource's cache read is under way: the read has found the old entry, but its result
/// has not reached the main actor yet (rule T9).
@MainActor
@Suite("T9 a wipe during a cache read discards its result", .checksLifetimes, .hangLimit)
struct CacheWipeRaceTests {
    let harness = Harness()
    let cache = RecordingCache(name: "shared")

    init() {
        let cache = cache
        harness.service.configure { $0.pipeline[.rawData].cacheUsing(cache) }
    }

    enum Wipe: String, CaseIterable, Sendable {
        case resource = "wipe()"
        case logOut = "wipeResources()"
        case pattern = "wipeResources(matching:)"
    }

    @Test("T9 wiped data never comes back from a read that began before the wipe", arguments: Wipe.allCases)
    func wipeDuringRead(_ wipe: Wipe) async throws {
        cache.seed("/v1/me", content: Data("the last user's".utf8), timestamp: 990)
        let reads = cache.holdReads()
        defer { reads.open() }  // however the test ends: only this cache's queue waits at the gate
        let me = harness.service.resource("/me")
        let observer = RecordingObserver()
        me.addObserver(observer)  // starts the cache read
        // The read has found the old entry and waits at the gate before returning, so its result cannot reach the
        // main actor before the wipe; the main actor stays free meanwhile.
        #expect(await reads.reached(1), "the cache was never read")
        var waited = false
        me.whenCacheChecked { waited = true }  // waits for the read the wipe overtakes
        switch wipe {
        case .resource: me.wipe()
        case .logOut: harness.service.wipeResources()
        case .pattern: harness.service.wipeResources(matching: "/me")
        }
        let again = RecordingObserver()
        me.addObserver(again)  // the next user's screen: a new read, queued behind the removal
        reads.open()  // the first read returns the old entry now, after the wipe
        #expect(await reads.reached(2), "the cache was not read again")
        await me.cacheCheckCompleted()  // the second read is over
        // Each read hops to the main actor from a thread of its own, so the first may arrive after the second: its
        // waiter runs when it does, dropped result and all.
        await waitUntil { waited }
        #expect(me.latestData == nil)
        #expect(!observer.events.contains("newData(cache)"))
        #expect(!again.events.contains("newData(cache)"))
        #expect(waited, "a wipe lost what waited for the read it overtook")
    }
}
