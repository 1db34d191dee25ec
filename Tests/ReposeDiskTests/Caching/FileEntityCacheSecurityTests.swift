import Foundation
import Testing

@testable import Repose
@testable import ReposeStorage
@testable import ReposeTestSupport

@Suite("FileEntityCache keeps what it writes private")
struct FileEntityCacheSecurityTests {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("repose-private-cache-\(UUID().uuidString)")
        .appendingPathComponent("nested")

    private func permissions(of url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return try #require((attributes[.posixPermissions] as? NSNumber)?.intValue)
    }

    @Test("K5 the cache folder is created 0700 and each entry file 0600, with no temporary file left behind")
    func privatePermissions() throws {
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let cache = FileEntityCache(directory: folder)
        cache.writeEntity(Entity<Any>(content: Data("secret".utf8), contentType: "text/plain"), forKey: "a.entity")
        cache.writeEntity(Entity<Any>(content: Data("again".utf8), contentType: "text/plain"), forKey: "a.entity")

        #expect(try permissions(of: folder) == 0o700)
        let name = FileEntityCache.fileName(for: "a.entity")
        #expect(try permissions(of: folder.appendingPathComponent(name)) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [name])
        #expect(cache.readEntity(forKey: "a.entity")?.content as? Data == Data("again".utf8))
    }

    @Test("K11 Set-Cookie and Set-Cookie2 headers are never written to disk; other headers are")
    func noCookiesOnDisk() throws {
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let cache = FileEntityCache(directory: folder)
        let headers = [
            "set-cookie": "session=s3cr3t-value", "Set-Cookie2": "legacy=0ld-s3cr3t", "etag": "\"v1\"",
        ]
        cache.writeEntity(
            Entity<Any>(content: "body", contentType: "text/plain", headers: headers), forKey: "c.entity")

        let raw = try Data(contentsOf: folder.appendingPathComponent(FileEntityCache.fileName(for: "c.entity")))
        let text = String(decoding: raw, as: UTF8.self)
        #expect(!text.contains("s3cr3t"))
        #expect(!text.lowercased().contains("set-cookie"))
        let read = try #require(cache.readEntity(forKey: "c.entity"))
        #expect(read.header(forKey: "ETag") == "\"v1\"")
        #expect(read.header(forKey: "Set-Cookie") == nil)
    }

    @Test("K7 removeAllEntities empties the folder, for log-out")
    func removeAll() throws {
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let cache = FileEntityCache(directory: folder)
        for key in ["a.entity", "b.entity"] {
            cache.writeEntity(Entity<Any>(content: "x", contentType: "text/plain", timestamp: 1), forKey: key)
        }
        cache.workQueue.sync { cache.removeAllEntities() }
        let afterwards = cache.workQueue.sync { cache.readEntity(forKey: "a.entity") }
        #expect(afterwards == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
