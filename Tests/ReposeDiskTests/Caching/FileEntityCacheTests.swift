import Foundation
import Testing

@testable import Repose
@testable import ReposeStorage
@testable import ReposeTestSupport

@MainActor
@Suite("FileEntityCache", .checksLifetimes)
struct FileEntityCacheTests {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("repose-file-cache-\(UUID().uuidString)")

    func service(_ harness: Harness, cache: FileEntityCache? = nil) -> Service {
        let cache = cache ?? FileEntityCache(directory: folder)
        harness.service.configure { $0.pipeline[.rawData].cacheUsing(cache) }
        return harness.service
    }

    @Test("H1 data loaded in one launch is shown from disk in the next, before any request")
    func survivesRelaunch() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = Harness()
        let firstCache = FileEntityCache(directory: folder)
        let firstResource = service(first, cache: firstCache).resource("/users/ada")
        await firstResource.cacheCheckCompleted()
        await first.answer(firstResource.load(), contentType: "application/json", text: #"{"name":"Ada"}"#)
        firstCache.workQueue.sync {}  // the write was queued before the response reached the main actor

        let second = Harness()
        let secondResource = service(second).resource("/users/ada")
        await secondResource.cacheCheckCompleted()
        #expect(secondResource.jsonDict["name"] as? String == "Ada")
        #expect(second.network.sent.isEmpty)
    }

    @Test("T11 K7 a cache made inside the configuration closure: flush() waits for the write of the instance in use")
    func flushFindsTheCacheInUse() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let harness = Harness()
        let folder = folder
        // A new instance each time the configuration is built, as the guide's first program writes it.
        harness.service.configure { $0.pipeline[.rawData].cacheUsing(FileEntityCache(directory: folder)) }
        let user = harness.service.resource("/users/ada")
        await user.cacheCheckCompleted()
        let inUse = try #require(user.configuration.pipeline[.rawData].cache)
        let gate = DispatchSemaphore(value: 0)
        defer { gate.signal() }  // released however the test ends
        inUse.workQueue.async { gate.wait() }  // the write below waits behind this
        await harness.answer(user.load(), contentType: "application/json", text: #"{"name":"Ada"}"#)
        let flushed = FlushFlag()
        let flushing = Task { @MainActor [service = harness.service] in
            await service.flush()
            flushed.isSet = true
        }
        for _ in 0..<20 { await Task.yield() }
        #expect(!flushed.isSet, "flush() returned while the write waited on the cache's queue")
        gate.signal()
        await flushing.value
        let entry = folder.appendingPathComponent(FileEntityCache.fileName(for: user.url.absoluteString))
        #expect(FileManager.default.fileExists(atPath: entry.path))
    }

    @Test("a corrupt cache file is a miss, is removed, and never crashes")
    func corruptFile() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let harness = Harness()
        let resource = service(harness).resource("/broken")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent(FileEntityCache.fileName(for: resource.url.absoluteString))
        try Data("{not json at all".utf8).write(to: file)
        await resource.cacheCheckCompleted()
        #expect(resource.latestData == nil)
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test("K9 Data, String and JSON values are stored as they are, with content type, charset, headers and time")
    func builtInKinds() {
        let cache = FileEntityCache(directory: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let contents: [String: Any] = [
            "bytes": Data([0, 10, 13, 255]), "text": "line one\nline two ✓", "object": ["a": 1, "b": ["x", "y"]],
            "array": [1, "two", ["three": 3.5]],
        ]
        for (key, content) in contents {
            cache.writeEntity(
                Entity<Any>(
                    content: content, contentType: "x/\(key)", charset: "utf-8", headers: ["etag": "\"\(key)\""],
                    timestamp: 42),
                forKey: key)
        }
        for (key, content) in contents {
            let read = cache.readEntity(forKey: key)
            #expect(read.map { sameContent($0.content, content) } == true, "\(key)")
            #expect(read?.contentType == "x/\(key)" && read?.charset == "utf-8" && read?.timestamp == 42)
            #expect(read?.header(forKey: "ETag") == "\"\(key)\"")
        }
    }
}

/// Set once, on the main actor.
@MainActor
private final class FlushFlag {
    var isSet = false
}
