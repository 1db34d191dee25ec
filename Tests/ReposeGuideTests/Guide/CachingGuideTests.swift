import Foundation
import Repose
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

    @Test("the account's partition is part of every key, so one account's entries are misses for another")
    func partition() {
        let cache = CachingGuide.limits(folder: folder)
        CachingGuide.signIn(CachingGuide.Account(id: "ada"), cache: cache)
        let ada = cache.key(for: service.resource("/articles/1"))
        CachingGuide.signIn(CachingGuide.Account(id: "grace"), cache: cache)
        let grace = cache.key(for: service.resource("/articles/1"))
        #expect(ada != grace)
        #expect(ada?.hasPrefix("ada") == true)
    }
}
