import Foundation
import ReposeStorage
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// Two launches of an app, as two services over one cache folder and one real HTTP server on the loopback address.
@MainActor
@Suite("A relaunch starts from disk", .checksLifetimes)
final class CacheRelaunchTests {
    /// Its server answers both launches; its `completion(of:)` bounds every wait.
    let fixture: IntegrationFixture
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("repose-relaunch-\(UUID().uuidString)")

    init() async throws {
        fixture = try await IntegrationFixture()
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// One launch: a fresh service, provider and cache over the shared folder.
    private func launch(expirationTime: TimeInterval = 30) -> (Service, FileEntityCache) {
        let service = Service(
            baseURL: "http://127.0.0.1:\(fixture.server.port)", options: .init(networking: URLSessionProvider()))
        LifetimeCheck.track(service)
        let cache = FileEntityCache(directory: folder)
        service.configure {
            $0.pipeline[.rawData].cacheUsing(cache)
            $0.expirationTime = expirationTime
        }
        return (service, cache)
    }

    @Test("K1 the next launch shows the stored data before any request, then revalidates it with a 304 (K8)")
    func relaunchShowsDiskDataThenRevalidates() async throws {
        do {  // first launch: from the network, into the cache; then the service is dropped
            let (service, cache) = launch()
            let resource = service.resource("/etag/v1")
            let info = try #require(await fixture.completion(of: resource.load()))
            #expect(info.response.entity != nil)
            cache.workQueue.sync {}  // the write was queued before the response reached the main actor
        }
        #expect(try !FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)

        let (service, _) = launch(expirationTime: 0)  // second launch: everything stored is already stale
        let resource = service.resource("/etag/v1")
        let observer = RecordingObserver()
        resource.addObserver(observer)
        let request = try #require(resource.loadIfNeeded())
        let info = try #require(await fixture.completion(of: request))
        #expect(info.isNew == false)
        #expect(observer.events == ["observerAdded", "newData(cache)", "requested", "notModified"])
        #expect(resource.latestData?.etag == "\"v1\"")
        #expect(resource.latestError == nil)
    }

    @Test("K1 with fresh stored data the next launch needs no request at all")
    func relaunchWithFreshData() async throws {
        // Fresh for a day: however long a loaded machine takes between the two launches, the data is still fresh
        // (with 30 s, a run under AddressSanitizer beside another suite went to the network).
        let day: TimeInterval = 24 * 3600
        do {
            let (service, cache) = launch(expirationTime: day)
            _ = try #require(await fixture.completion(of: service.resource("/etag/v2").load()))
            cache.workQueue.sync {}
        }
        let (service, _) = launch(expirationTime: day)
        let resource = service.resource("/etag/v2")
        let observer = RecordingObserver()
        resource.addObserver(observer)
        let request = try #require(resource.loadIfNeeded())
        _ = try #require(await fixture.completion(of: request))
        #expect(observer.events == ["observerAdded", "newData(cache)", "notModified"])
        #expect(resource.loadIfNeeded() == nil)
    }
}
