// The Swift blocks of Docs/Caching.md, verbatim: GuideSnippetTests checks that every block appears here.
import Foundation
import Repose
import ReposeStorage

@testable import ReposeTestSupport

@MainActor
enum CachingGuide {
    struct User: Codable, Sendable {
        var name: String
    }

    struct Post: Codable, Sendable {
        var title: String
    }

    struct Account {
        var id: String
    }

    static func attach(to service: Service) -> FileEntityCache {
        let folder = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
            .appendingPathComponent("api")
        let cache = FileEntityCache(directory: folder)
        service.configure {
            $0.pipeline[.rawData].cacheUsing(cache)
        }
        return cache
    }

    static func models(_ service: Service, folder: URL) -> FileEntityCache {
        let cache = FileEntityCache(directory: folder, codecs: [.codable(User.self), .codable([Post].self)])
        service.configure("/users/*") { $0.pipeline[.model].cacheUsing(cache) }
        return cache
    }

    static func limits(folder: URL) -> FileEntityCache {
        let limits = FileEntityCache.Limits(maximumSize: 20 * 1024 * 1024, maximumEntryCount: 500)
        let cache = FileEntityCache(directory: folder, limits: limits)
        return cache
    }

    static func byPattern(_ service: Service, cache: FileEntityCache) {
        service.configure("/articles/**") { $0.pipeline[.rawData].cacheUsing(cache) }
    }

    static func signIn(_ account: Account, api: Service) {
        api.partition = account.id
    }

    static func storing(folder: URL) -> FileEntityCache {
        let cache = FileEntityCache(directory: folder, storing: { !$0.url.path.hasPrefix("/me/") })
        return cache
    }
}

/// The page's app, which logs out.
@MainActor
final class CachingGuideSession {
    let service: Service

    init(service: Service) {
        self.service = service
    }

    func logOut() {
        service.wipeResources()
    }
}
