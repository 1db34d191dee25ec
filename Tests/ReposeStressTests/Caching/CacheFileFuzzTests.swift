import Foundation
import Testing

@testable import Repose
@testable import ReposeStorage
@testable import ReposeTestSupport

@Suite("CacheFileFuzz: random and damaged cache files")
struct CacheFileFuzzTests {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("repose-cache-fuzz-\(UUID().uuidString)")

    /// Whole entries as `FileEntityCache` writes them, to damage, with what each holds.
    private func realEntries(_ cache: FileEntityCache) throws -> [(file: Data, entity: Entity<Any>)] {
        let entities: [Entity<Any>] = [
            Entity(content: Data("{\"name\":\"Ada\"}".utf8), contentType: "application/json", timestamp: 1000),
            Entity(
                content: "héllo, wörld", contentType: "text/plain; charset=utf-8", headers: ["ETag": "\"v1\""],
                timestamp: 2000),
            Entity(content: Data([0, 1, 2, 255]), contentType: "application/octet-stream", timestamp: 3000),
            Entity(content: ["list": [1, 2], "ok": true], contentType: "application/json", timestamp: 4000),
        ]
        return try entities.map { entity in
            cache.writeEntity(entity, forKey: key)
            return (try Data(contentsOf: folder.appendingPathComponent(FileEntityCache.fileName(for: key))), entity)
        }
    }

    let key = "https://api.example.com/fuzz"

    @Test("K3 10,000 random, truncated and damaged cache files read as a miss (and are removed), never other data")
    @MainActor
    func damagedFiles() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = FileEntityCache(directory: folder)
        let seeds = try realEntries(cache)
        await FuzzRun().check("cache files", cases: 10_000, filter: "CacheFileFuzz") { fuzzCase in
            var bytes: [UInt8]
            var original: Entity<Any>?  // what the file held before it was damaged, if it was a real entry
            switch fuzzCase.int(in: 0...2) {
            case 0:
                bytes = (0..<fuzzCase.int(in: 0...300)).map { _ in UInt8(fuzzCase.int(in: 0...255)) }
                fuzzCase.note("\(bytes.count) random bytes")
            case 1:
                let picked = fuzzCase.pick(seeds)
                let seed = [UInt8](picked.file)
                original = picked.entity
                bytes = Array(seed.prefix(fuzzCase.int(in: 0...(seed.count - 1))))
                fuzzCase.note("a real entry cut to \(bytes.count) of \(seed.count) bytes")
            default:
                let picked = fuzzCase.pick(seeds)
                bytes = [UInt8](picked.file)
                original = picked.entity
                for _ in 0..<fuzzCase.int(in: 1...8) {
                    let index = fuzzCase.int(in: 0...(bytes.count - 1))
                    bytes[index] = UInt8(fuzzCase.int(in: 0...255))
                }
                fuzzCase.note("a real entry with bytes changed: \(String(decoding: bytes, as: UTF8.self))")
            }
            let file = folder.appendingPathComponent(FileEntityCache.fileName(for: key))
            do {
                try Data(bytes).write(to: file)
            } catch {
                return "could not write the case's file: \(error)"
            }
            guard let entity = cache.readEntity(forKey: key) else {
                return FileManager.default.fileExists(atPath: file.path) ? "a miss left its file behind" : nil
            }
            // Changed bytes can leave the file as it was (a byte set to its own value); anything else is a miss.
            guard let original, entity.timestamp == original.timestamp, entity.contentType == original.contentType,
                sameContent(entity.content, original.content)
            else { return "read \(entity) from a damaged file" }
            return nil
        }
    }
}
