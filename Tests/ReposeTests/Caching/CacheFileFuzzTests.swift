import Foundation
import Testing

@testable import Repose

@Suite("CacheFileFuzz: random and damaged cache files")
struct CacheFileFuzzTests {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("repose-cache-fuzz-\(UUID().uuidString)")

    /// Whole entries as `FileEntityCache` writes them, to damage.
    private func realEntries(_ cache: FileEntityCache) throws -> [Data] {
        let entities: [Entity<Any>] = [
            Entity(content: Data("{\"name\":\"Ada\"}".utf8), contentType: "application/json", timestamp: 1000),
            Entity(
                content: "héllo, wörld", contentType: "text/plain; charset=utf-8", headers: ["ETag": "\"v1\""],
                timestamp: 2000),
            Entity(content: Data([0, 1, 2, 255]), contentType: "application/octet-stream", timestamp: 3000),
        ]
        return try entities.enumerated().map { index, entity in
            cache.writeEntity(entity, forKey: "seed\(index).entity")
            return try Data(contentsOf: folder.appendingPathComponent("seed\(index).entity"))
        }
    }

    @Test("K3 10,000 random, truncated and bit-flipped cache files read as a miss (and are removed) or a whole entity")
    @MainActor
    func damagedFiles() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = FileEntityCache(directory: folder)
        let seeds = try realEntries(cache)
        await FuzzRun().check("cache files", cases: 10_000, filter: "CacheFileFuzz") { fuzzCase in
            var bytes: [UInt8]
            switch fuzzCase.int(in: 0...2) {
            case 0:
                bytes = (0..<fuzzCase.int(in: 0...300)).map { _ in UInt8(fuzzCase.int(in: 0...255)) }
                fuzzCase.note("\(bytes.count) random bytes")
            case 1:
                let seed = [UInt8](fuzzCase.pick(seeds))
                bytes = Array(seed.prefix(fuzzCase.int(in: 0...(seed.count - 1))))
                fuzzCase.note("a real entry cut to \(bytes.count) of \(seed.count) bytes")
            default:
                bytes = [UInt8](fuzzCase.pick(seeds))
                for _ in 0..<fuzzCase.int(in: 1...8) {
                    let index = fuzzCase.int(in: 0...(bytes.count - 1))
                    bytes[index] = UInt8(fuzzCase.int(in: 0...255))
                }
                fuzzCase.note("a real entry with bytes changed: \(String(decoding: bytes, as: UTF8.self))")
            }
            let file = folder.appendingPathComponent("case.entity")
            do {
                try Data(bytes).write(to: file)
            } catch {
                return "could not write the case's file: \(error)"
            }
            guard let entity = cache.readEntity(forKey: "case.entity") else {
                return FileManager.default.fileExists(atPath: file.path) ? "a miss left its file behind" : nil
            }
            guard entity.content is Data || entity.content is String else {
                return "read content of type \(type(of: entity.content))"
            }
            return nil
        }
    }
}
