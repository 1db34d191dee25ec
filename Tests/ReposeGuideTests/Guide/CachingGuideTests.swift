import Foundation
import Repose
import ReposeStorage
import Testing

@testable import ReposeTestSupport

@MainActor
@Suite("The examples of the caching page", .checksLifetimes)
struct CachingGuideTests {
    let service = Service(baseURL: "https://api.example.com")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("caching-guide-\(UUID().uuidString)")

    init() {
        LifetimeCheck.track(service)
    }

    @Test("storing: leaves the resources it rejects out of the cache")
    func storing() {
        let cache = CachingGuide.storing(folder: folder)
        #expect(cache.key(for: service.resource("/me/settings")) == nil)
        #expect(cache.key(for: service.resource("/articles/1")) == "https://api.example.com/articles/1")
    }

    @Test(
        "the service's partition reaches its file cache: part of every key, so one account's entries are misses for another"
    )
    func partition() {
        let cache = CachingGuide.limits(folder: folder)
        service.configure { $0.pipeline[.rawData].cacheUsing(cache) }
        CachingGuide.signIn(CachingGuide.Account(id: "ada"), api: service)
        let ada = cache.key(for: service.resource("/articles/1"))
        CachingGuide.signIn(CachingGuide.Account(id: "grace"), api: service)
        let grace = cache.key(for: service.resource("/articles/1"))
        #expect(ada != grace)
        #expect(ada?.hasPrefix("ada") == true)
    }
}
