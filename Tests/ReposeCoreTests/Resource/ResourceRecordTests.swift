import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// The resource's data state as one value: each change, what it leaves behind and the one event it means.
@Suite("A resource's record of its data")
struct ResourceRecordTests {
    private let old = Entity<Any>(content: "old", contentType: "text/plain", timestamp: 100)
    private let new = Entity<Any>(content: "new", contentType: "text/plain", timestamp: 200)
    private let failure = RequestError(userMessage: "down", cause: nil, timestamp: 300)

    private func loaded() -> ResourceRecord {
        var record = ResourceRecord()
        _ = record.apply(.loaded(old, lifetime: nil))
        return record
    }

    @Test("A11 B9 a load's new data replaces the old, clears the error and the invalidation")
    func loadedReplaces() {
        var record = loaded()
        _ = record.apply(.failed(failure, retryAfter: nil))
        _ = record.apply(.invalidated)
        #expect(record.apply(.loaded(new, lifetime: nil)) == .newData(.network))
        #expect(record.latestData?.content as? String == "new")
        #expect(record.latestError == nil)
        #expect(!record.isInvalidated)
    }

    @Test("A12 K8 H4 a 304 re-stamps the data; data reused from a fresh cache keeps its age")
    func confirmedAndReused() {
        var record = loaded()
        #expect(record.apply(.reused) == .notModified)
        #expect(record.timestamp == 100)
        #expect(record.apply(.confirmed(at: 150)) == .notModified)
        #expect(record.latestData?.content as? String == "old")
        #expect(record.timestamp == 150)
    }

    @Test("A15 A25 a failure keeps the data, and freshness then follows retryTime from the later timestamp")
    func failureKeepsData() {
        var record = loaded()
        #expect(record.apply(.failed(failure, retryAfter: nil)) == .error)
        #expect(record.latestData?.content as? String == "old")
        #expect(record.timestamp == 300)
        #expect(record.isUpToDate(now: 300.9, expirationTime: 30, retryTime: 1))
        #expect(!record.isUpToDate(now: 301, expirationTime: 30, retryTime: 1))
    }

    @Test("A33 A34 A35 an invalidation survives a cancellation and is consumed by the next completed load")
    func invalidation() {
        var record = loaded()
        #expect(record.apply(.invalidated) == nil)
        #expect(!record.isUpToDate(now: 101, expirationTime: 30, retryTime: 1))
        #expect(record.apply(.cancelled) == .requestCancelled)
        #expect(record.isInvalidated)
        _ = record.apply(.failed(failure, retryAfter: nil))
        #expect(!record.isInvalidated)
    }

    @Test("H1 a cache hit applies only to a resource with neither data nor error")
    func cachedOnlyWhenEmpty() {
        var empty = ResourceRecord()
        #expect(empty.apply(.cached(old, lifetime: nil)) == .newData(.cache))
        var withData = loaded()
        #expect(withData.apply(.cached(new, lifetime: nil)) == nil)
        #expect(withData.latestData?.content as? String == "old")
        var withError = ResourceRecord()
        _ = withError.apply(.failed(failure, retryAfter: nil))
        #expect(withError.apply(.cached(new, lifetime: nil)) == nil)
    }

    @Test("A30 A36 B10 an override replaces data and error; a wipe forgets everything")
    func overrideAndWipe() {
        var record = loaded()
        _ = record.apply(.failed(failure, retryAfter: nil))
        #expect(record.apply(.overridden(new)) == .newData(.localOverride))
        #expect(record.latestError == nil)
        #expect(record.apply(.wiped) == .newData(.wipe))
        #expect(record.latestData == nil && record.latestError == nil && record.timestamp == 0)
    }
}

/// Reading a resource's state changes nothing, except the one read the cache rules ask for.
@MainActor
@Suite("Reading a resource's state", .checksLifetimes)
struct ResourceReadingTests {
    let harness = Harness()
    let cache = RecordingCache()

    init() {
        let cache = self.cache
        harness.service.configure { $0.pipeline[.rawData].cacheUsing(cache) }
    }

    @Test("H1 only the app's read of latestData starts the cache read; state, freshness and errors read nothing")
    func readsHaveNoSideEffect() async {
        cache.seed("/v1/a/b", content: Data("cached".utf8), timestamp: 990)
        let resource = harness.service.resource("/a/b")
        _ = resource.latestError
        _ = resource.isUpToDate
        _ = resource.timestamp
        _ = resource.currentState
        _ = resource.state.value
        cache.workQueue.sync {}
        #expect(cache.calls.isEmpty)

        #expect(resource.latestData == nil)  // the hit arrives later
        await resource.cacheCheckCompleted()
        #expect(cache.calls == ["read /v1/a/b"])
        #expect(resource.text == "cached")
    }
}
