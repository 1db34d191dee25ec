import Foundation
import Testing

@testable import Repose
@testable import ReposeStorage
@testable import ReposeTestSupport

/// The entry format, limits and content kinds of `FileEntityCache`, on the real file system in a folder per test.
@Suite("FileEntityCache: entries, limits and content kinds")
final class FileEntityCacheFormatTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("repose-format-\(UUID().uuidString)")

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    private func file(for key: String) -> URL {
        folder.appendingPathComponent(FileEntityCache.fileName(for: key))
    }

    private func entity(_ text: String, timestamp: TimeInterval = 1) -> Entity<Any> {
        Entity<Any>(content: Data(text.utf8), contentType: "text/plain", timestamp: timestamp)
    }

    private func names() -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
    }

    // MARK: K3

    @Test("K3 the file starts with the format version and records the key and URL in its header")
    func layout() throws {
        let cache = FileEntityCache(directory: folder)
        cache.writeEntity(entity("body"), forKey: "acct-1\nhttps://api.example.com/a")
        let text = String(decoding: try Data(contentsOf: file(for: "acct-1\nhttps://api.example.com/a")), as: UTF8.self)
        let lines = text.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false)
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("repose-cache 1 "))
        #expect(lines[1].contains(#""key":"acct-1\n"#))
        #expect(lines[1].contains(#""url":"https:\/\/api.example.com\/a""#))
        #expect(lines[2] == "body")
    }

    @Test("K3 an entry for another key in the file (a hash collision, a foreign file) is a miss and is removed")
    func otherKeyIsAMiss() throws {
        let cache = FileEntityCache(directory: folder)
        cache.writeEntity(entity("alice's"), forKey: "https://api.example.com/alice")
        // The file of another key now holds alice's entry, as a hash collision would leave it.
        try FileManager.default.copyItem(
            at: file(for: "https://api.example.com/alice"), to: file(for: "https://api.example.com/bob"))
        #expect(cache.readEntity(forKey: "https://api.example.com/bob") == nil)
        #expect(!FileManager.default.fileExists(atPath: file(for: "https://api.example.com/bob").path))
        #expect(cache.readEntity(forKey: "https://api.example.com/alice") != nil)
    }

    @Test(
        "K3 an unknown version, a cut-off body, extra bytes or a damaged header is a miss and is removed",
        arguments: ["version", "truncated", "extended", "header", "empty", "directory"])
    func damagedIsAMiss(damage: String) throws {
        let key = "https://api.example.com/x"
        let cache = FileEntityCache(directory: folder)
        cache.writeEntity(entity("0123456789"), forKey: key)
        let path = file(for: key)
        var bytes = try Data(contentsOf: path)
        switch damage {
        case "version": bytes.replaceSubrange(0..<14, with: Data("repose-cache 9".utf8))
        case "truncated": bytes.removeLast(3)
        case "extended": bytes.append(contentsOf: [1, 2, 3])
        case "header": bytes[try #require(bytes.firstIndex(of: UInt8(ascii: "{")))] = UInt8(ascii: "[")
        case "empty": bytes = Data()
        default: bytes = Data()
        }
        try FileManager.default.removeItem(at: path)
        if damage == "directory" {
            try FileManager.default.createDirectory(at: path, withIntermediateDirectories: false)
        } else {
            try bytes.write(to: path)
        }
        #expect(cache.readEntity(forKey: key) == nil)
        #expect(!FileManager.default.fileExists(atPath: path.path))
    }

    // MARK: K2

    @Test("K2 temporary files left by interrupted writes are removed when the cache first opens its folder")
    func leftoversRemovedOnOpen() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let leftover = folder.appendingPathComponent(".\(UUID().uuidString).tmp")
        try Data(count: 4096).write(to: leftover)
        let cache = FileEntityCache(directory: folder)
        #expect(cache.readEntity(forKey: "https://api.example.com/anything") == nil)
        #expect(!FileManager.default.fileExists(atPath: leftover.path))
    }

    // MARK: K4

    @Test("K4 past the entry limit, the least recently used entries go, a read counting as a use")
    func evictsByCount() {
        let cache = FileEntityCache(directory: folder, limits: .init(maximumSize: .max, maximumEntryCount: 3))
        for name in ["a", "b", "c"] { cache.writeEntity(entity(name), forKey: name) }
        _ = cache.readEntity(forKey: "a")  // a is now the most recently used
        cache.writeEntity(entity("d"), forKey: "d")
        #expect(cache.readEntity(forKey: "b") == nil)
        #expect(["a", "c", "d"].allSatisfy { cache.readEntity(forKey: $0) != nil })
        #expect(names().count == 3)
    }

    @Test("K4 past the size limit, the least recently used entries go until the folder fits")
    func evictsBySize() throws {
        do {
            let cache = FileEntityCache(directory: folder, limits: .init(maximumSize: 10_000, maximumEntryCount: 100))
            cache.writeEntity(entity(String(repeating: "x", count: 4_000)), forKey: "one")
            cache.writeEntity(entity(String(repeating: "y", count: 4_000)), forKey: "two")
            cache.writeEntity(entity(String(repeating: "z", count: 4_000)), forKey: "three")
            #expect(cache.readEntity(forKey: "one") == nil)
            #expect(cache.readEntity(forKey: "two") != nil && cache.readEntity(forKey: "three") != nil)
        }
        let total = try names().reduce(0) { sum, name in
            sum
                + (try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)[.size]
                as? NSNumber ?? 0).intValue
        }
        #expect(total <= 10_000)
    }

    @Test("K4 the limits hold across launches: a new cache over the folder knows its entries and their order")
    func limitsAcrossLaunches() {
        do {
            let first = FileEntityCache(directory: folder, limits: .init(maximumSize: .max, maximumEntryCount: 10))
            for (index, name) in ["old", "mid", "new"].enumerated() {
                first.writeEntity(entity(name), forKey: name)
                // Modification times order entries across launches; a second apart, as writes on different days.
                try? FileManager.default.setAttributes(
                    [.modificationDate: Date(timeIntervalSinceNow: Double(index - 10))],
                    ofItemAtPath: file(for: name).path)
            }
        }
        let second = FileEntityCache(directory: folder, limits: .init(maximumSize: .max, maximumEntryCount: 3))
        second.writeEntity(entity("newest"), forKey: "newest")
        #expect(names().count == 3)
        #expect(second.readEntity(forKey: "old") == nil)
        #expect(second.readEntity(forKey: "mid") != nil)

        let smaller = FileEntityCache(directory: folder, limits: .init(maximumSize: .max, maximumEntryCount: 1))
        #expect(smaller.readEntity(forKey: "nothing") == nil)  // opening applies the lower limit at once
        #expect(names().count == 1)
    }

    // MARK: K9

    struct Profile: Codable, Sendable, Equatable {
        var name: String
        var joined: Date
    }

    @Test("K9 a Codable model is stored through the codec the app supplies, and read back as the same model")
    func codableModel() {
        let cache = FileEntityCache(directory: folder, codecs: [.codable(Profile.self)])
        let ada = Profile(name: "Ada", joined: Date(timeIntervalSince1970: 1_000))
        cache.writeEntity(Entity<Any>(content: ada, contentType: "application/json", timestamp: 7), forKey: "p")
        let read = cache.readEntity(forKey: "p")
        #expect(read?.content as? Profile == ada)
        #expect(read?.timestamp == 7)

        let withoutCodec = FileEntityCache(directory: folder)  // the next launch forgot the codec: a miss
        #expect(withoutCodec.readEntity(forKey: "p") == nil)
    }

    @Test("K9 content the cache cannot store is skipped, with one log line per Swift type naming it")
    func unstorableLoggedOncePerType() {
        struct Unknown {}
        let cache = FileEntityCache(directory: folder)
        let recorder = RecordingLogHandler()
        ReposeLog.withEnabled(.cache) {
            ReposeLog.withHandler(recorder.handler) {
                for key in ["a", "b", "c"] {
                    cache.writeEntity(Entity<Any>(content: Unknown(), contentType: "x/y"), forKey: key)
                }
                cache.writeEntity(Entity<Any>(content: 17, contentType: "x/y"), forKey: "n")
            }
        }
        #expect(names().isEmpty)
        #expect(recorder.lines.count == 2)
        #expect(recorder.lines.first?.contains("Unknown") == true)
        #expect(recorder.lines.first?.contains(".codable(") == true)
        #expect(recorder.lines.last?.contains("Int") == true)
    }

    // MARK: K10

    @Test("K10 an unwritable folder logs one line naming it; reads miss and writes are dropped, without a crash")
    func unwritableFolder() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let blocker = folder.appendingPathComponent("a-file")
        try Data("not a folder".utf8).write(to: blocker)
        let cache = FileEntityCache(directory: blocker.appendingPathComponent("cache"))  // under a regular file
        let recorder = RecordingLogHandler()
        ReposeLog.withEnabled(.cache) {
            ReposeLog.withHandler(recorder.handler) {
                for key in ["a", "b"] { cache.writeEntity(entity(key), forKey: key) }
                #expect(cache.readEntity(forKey: "a") == nil)
            }
        }
        #expect(recorder.lines.count == 1)
        #expect(recorder.lines.first?.contains(blocker.appendingPathComponent("cache").path) == true)
    }

    // MARK: Removal

    @Test("K7 removeEntities(forURLsMatching:) removes the entries whose URL matches, in any partition")
    func removeByURL() {
        let cache = FileEntityCache(directory: folder)
        cache.writeEntity(entity("1"), forKey: "https://api.example.com/me/inbox")
        cache.writeEntity(entity("2"), forKey: "acct\nhttps://api.example.com/me/drafts")
        cache.writeEntity(entity("3"), forKey: "https://api.example.com/news")
        cache.removeEntities(forURLsMatching: { $0.path.hasPrefix("/me/") })
        #expect(cache.readEntity(forKey: "https://api.example.com/me/inbox") == nil)
        #expect(cache.readEntity(forKey: "acct\nhttps://api.example.com/me/drafts") == nil)
        #expect(cache.readEntity(forKey: "https://api.example.com/news") != nil)
    }
}
