import Foundation
import ReposeStorage
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// The entity-cache rules of section H, through real `FileEntityCache`s in a temporary folder (the recording cache's
/// versions of these tests check the calls; these check what really lands on disk and comes back).
@MainActor
@Suite("Entity-cache rules through the file system", .checksLifetimes)
final class FileCacheRulesTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("repose-h-rules-\(UUID().uuidString)")
    let harness = Harness()
    let raw: FileEntityCache
    var resource: Resource { harness.service.resource("/a/b") }

    init() {
        raw = FileEntityCache(directory: root.appendingPathComponent("raw"))
        let raw = self.raw
        harness.service.configure { $0.pipeline[.rawData].cacheUsing(raw) }
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    /// Stores `content` for the resource in `cache`, as a previous launch's `stage` would have.
    private func seed(
        _ cache: FileEntityCache, _ content: Any, timestamp: TimeInterval, at stage: PipelineStageKey = .rawData
    ) throws {
        let key = try #require(cache.key(for: resource, at: stage))
        cache.writeEntity(Entity<Any>(content: content, contentType: "text/plain", timestamp: timestamp), forKey: key)
    }

    private func stored(in cache: FileEntityCache, at stage: PipelineStageKey = .rawData) throws -> Entity<Any>? {
        let key = try #require(cache.key(for: resource, at: stage))
        return cache.workQueue.sync { cache.readEntity(forKey: key) }
    }

    @Test("H1 the resource starts empty; the entry on disk arrives later as newData(cache)")
    func startsEmpty() async throws {
        try seed(raw, Data("from disk".utf8), timestamp: 990)
        let observer = RecordingObserver()
        resource.addObserver(observer)
        #expect(resource.latestData == nil)
        await resource.cacheCheckCompleted()
        #expect(observer.events == ["observerAdded", "newData(cache)"])
        #expect(resource.text == "from disk")
    }

    @Test("H4 H5 a fresh entry on disk answers loadIfNeeded without the network: newData(cache), then notModified")
    func freshHit() async throws {
        try seed(raw, Data("fresh".utf8), timestamp: 995)
        let observer = RecordingObserver()
        resource.addObserver(observer)
        _ = await resource.loadIfNeeded()?.responseInfo
        #expect(observer.events == ["observerAdded", "newData(cache)", "notModified"])
        #expect(harness.network.sent.isEmpty)
        #expect(resource.loadIfNeeded() == nil)
    }

    @Test("X1 H4 a fresh entry on disk that answers loadIfNeeded is heard by a monitor as the cache's, 0 bytes")
    func freshHitHeardAsCache() async throws {
        try seed(raw, Data("fresh".utf8), timestamp: 995)
        var heard: [RequestMetrics] = []
        let monitor = harness.service.monitorRequests(owner: self) { metrics in heard.append(metrics) }
        _ = await resource.loadIfNeeded()?.responseInfo
        monitor.cancel()
        #expect(harness.network.sent.isEmpty)
        #expect(heard.map(\.source) == [.cache])
        #expect(heard.map(\.bytesReceived) == [0])
        #expect(heard.map(\.url.path) == ["/v1/a/b"])
    }

    @Test("H4 K8 a fresh hit keeps its stored age: only a server's 304 makes cached data fresh again")
    func freshHitKeepsItsAge() async throws {
        try seed(raw, Data("fresh".utf8), timestamp: 995)
        _ = await resource.loadIfNeeded()?.responseInfo
        #expect(resource.latestData?.timestamp == 995)
        raw.workQueue.sync {}
        #expect(try stored(in: raw)?.timestamp == 995)  // no rewrite either: nothing was confirmed

        harness.clock.now = 1026  // 31 s after the server last spoke: stale, even though it was read at 1000
        let request = try #require(resource.loadIfNeeded())
        await harness.answer(request, status: 304)
        #expect(resource.latestData?.timestamp == 1026)
        raw.workQueue.sync {}
        #expect(try stored(in: raw)?.timestamp == 1026)
    }

    @Test("W4 K8 a 304's headers reach the disk: after a relaunch the entry has the lifetime the 304 gave")
    func notModifiedHeadersReachTheDisk() async throws {
        harness.service.configure { $0.freshness = .fromHTTPHeaders }
        await resource.cacheCheckCompleted()
        let headers = ["ETag": "\"a\"", "Cache-Control": "max-age=3600"]
        await harness.answer(resource.load(), text: "kept", headers: headers)
        await harness.answer(resource.load(), status: 304, headers: ["ETag": "\"a\"", "Cache-Control": "no-cache"])
        raw.workQueue.sync {}
        #expect(try stored(in: raw)?.header(forKey: "Cache-Control") == "no-cache")
        #expect(try stored(in: raw)?.content as? Data == Data("kept".utf8))

        let relaunch = Harness()  // the next launch, over the same folder
        let cache = FileEntityCache(directory: root.appendingPathComponent("raw"))
        relaunch.service.configure {
            $0.pipeline[.rawData].cacheUsing(cache)
            $0.freshness = .fromHTTPHeaders
        }
        let resource = relaunch.service.resource("/a/b")
        let request = resource.loadIfNeeded()
        await resource.cacheCheckCompleted()
        #expect(resource.text == "kept")
        #expect(relaunch.network.sent.count == 1)  // no-cache: the disk's copy is revalidated, not taken as fresh
        await relaunch.network.respond(status: 304, headers: ["ETag": "\"a\""])
        _ = await request?.responseInfo
    }

    @Test("H4 H6 a stale entry is shown, then replaced from the network; a miss goes straight to the network")
    func staleHitAndMiss() async throws {
        try seed(raw, Data("stale".utf8), timestamp: 100)
        let observer = RecordingObserver()
        resource.addObserver(observer)
        let request = resource.loadIfNeeded()
        await resource.cacheCheckCompleted()
        await harness.network.respond(status: 200, headers: ["Content-Type": "text/plain"], body: Data("new".utf8))
        _ = await request?.responseInfo
        #expect(observer.events == ["observerAdded", "newData(cache)", "requested", "newData(network)"])
        #expect(try stored(in: raw)?.content as? Data == Data("new".utf8))

        let other = harness.service.resource("/missing")
        let otherObserver = RecordingObserver()
        other.addObserver(otherObserver)
        let miss = other.loadIfNeeded()
        await other.cacheCheckCompleted()
        await harness.network.respond(status: 200, headers: ["Content-Type": "text/plain"], body: Data("net".utf8))
        _ = await miss?.responseInfo
        #expect(otherObserver.events == ["observerAdded", "requested", "newData(network)"])
    }

    @Test("H8 H9 the latest stage's entry wins, and a raw entry runs through the later stages")
    func latestStageWinsAndLaterStagesRun() async throws {
        let decoded = FileEntityCache(directory: root.appendingPathComponent("decoded"))
        try seed(raw, Data("raw bytes".utf8), timestamp: 990)
        try seed(decoded, "decoded text", timestamp: 990, at: .decoding)
        harness.service.configure { $0.pipeline[.decoding].cacheUsing(decoded) }
        await resource.cacheCheckCompleted()
        #expect(resource.latestData?.content as? String == "decoded text")

        let rawOnly = harness.service.resource("/raw-only")
        let key = try #require(raw.key(for: rawOnly))
        raw.writeEntity(
            Entity<Any>(content: Data("bytes".utf8), contentType: "text/plain", timestamp: 990), forKey: key)
        await rawOnly.cacheCheckCompleted()
        #expect(rawOnly.latestData?.content as? String == "bytes")  // decoded into text by the stage after rawData
    }

    @Test("H10 an entry a later stage rejects is ignored in favour of an earlier cache's entry")
    func rejectedHitFallsBack() async throws {
        let parsed = FileEntityCache(directory: root.appendingPathComponent("parsed"))
        try seed(parsed, Data([0xFF, 0xFE]), timestamp: 990, at: .parsing)  // bytes: the model stage below wants text
        try seed(raw, Data("good".utf8), timestamp: 990)
        harness.service.configure {
            $0.pipeline[.parsing].cacheUsing(parsed)
            $0.pipeline[.model].add(ResponseContentTransformer<String, String> { $0.content + "+model" })
        }
        await resource.cacheCheckCompleted()
        #expect(resource.latestData?.content as? String == "good+model")
    }

    @Test("H11 a success is written to every stage's cache with that stage's output; a failure to none")
    func writesEveryStage() async throws {
        let decoded = FileEntityCache(directory: root.appendingPathComponent("decoded"))
        harness.service.configure { $0.pipeline[.decoding].cacheUsing(decoded) }
        await resource.cacheCheckCompleted()
        await harness.answer(resource.load(), text: "both")
        decoded.workQueue.sync {}
        #expect(try stored(in: raw)?.content as? Data == Data("both".utf8))
        #expect(try stored(in: decoded, at: .decoding)?.content as? String == "both")
        await harness.answer(resource.load(), status: 500, text: "failure")
        #expect(try stored(in: raw)?.content as? Data == Data("both".utf8))
    }

    @Test("T10 two FileEntityCaches over one folder on two stages never share a file; each reads its own kind")
    func twoStagesOneFolder() async throws {
        let folder = root.appendingPathComponent("shared")
        let (bytes, text) = (FileEntityCache(directory: folder), FileEntityCache(directory: folder))
        harness.service.configure {
            $0.pipeline[.rawData].cacheUsing(bytes)
            $0.pipeline[.decoding].cacheUsing(text)
        }
        await resource.cacheCheckCompleted()
        await harness.answer(resource.load(), text: "both")
        bytes.workQueue.sync {}
        text.workQueue.sync {}
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 2)
        #expect(try stored(in: bytes)?.content as? Data == Data("both".utf8))
        #expect(try stored(in: text, at: .decoding)?.content as? String == "both")
    }

    @Test("H14 a resource the cache gives no key is neither read nor written")
    func noKeyNoFile() async throws {
        let picky = FileEntityCache(directory: root.appendingPathComponent("picky"), storing: { _ in false })
        harness.service.configure { $0.pipeline[.rawData].cacheUsing(picky) }
        await resource.cacheCheckCompleted()
        await harness.answer(resource.load(), text: "not stored")
        picky.workQueue.sync {}
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("picky").path))
    }

    @Test("K6 K7 K8 on disk: no-store removes the file, a 304 keeps the body with a new time, wipe removes it")
    func maintenanceOnDisk() async throws {
        await resource.cacheCheckCompleted()
        await harness.answer(resource.load(), text: "v1", headers: ["ETag": "\"1\""])
        #expect(try stored(in: raw)?.timestamp == 1000)
        harness.clock.now = 1500
        await harness.answer(resource.load(), status: 304)
        raw.workQueue.sync {}
        let refreshed = try stored(in: raw)
        #expect(refreshed?.timestamp == 1500)
        #expect(refreshed?.content as? Data == Data("v1".utf8))

        await harness.answer(resource.load(), text: "private", headers: ["Cache-Control": "no-store"])
        raw.workQueue.sync {}
        #expect(try stored(in: raw) == nil)

        await harness.answer(resource.load(), text: "v2")
        raw.workQueue.sync {}
        #expect(try stored(in: raw) != nil)
        resource.wipe()
        #expect(try stored(in: raw) == nil)
        harness.service.wipeResources()
        raw.workQueue.sync {}
        let left = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("raw").path)) ?? []
        #expect(left.isEmpty)
    }

    struct Profile: Codable, Sendable, Equatable {
        var name: String
    }

    @Test("K9 H9 a model stored on the model stage comes back on a warm start without parsing anything again")
    func modelStageSkipsParsing() async throws {
        let models = FileEntityCache(directory: root.appendingPathComponent("models"), codecs: [.codable(Profile.self)])
        let parsing = RecordingTransformer()
        harness.service.configureTransformer(decoding: Profile.self)
        harness.service.configure {
            $0.pipeline[.parsing].add(parsing)
            $0.pipeline[.model].cacheUsing(models)
        }
        await resource.cacheCheckCompleted()
        await harness.answer(resource.load(), contentType: "application/json", text: #"{"name":"Ada"}"#)
        models.workQueue.sync {}
        #expect(parsing.seen == ["success"])
        #expect(try stored(in: models, at: .model)?.content as? Profile == Profile(name: "Ada"))

        let relaunched = Harness()
        let cache = FileEntityCache(directory: root.appendingPathComponent("models"), codecs: [.codable(Profile.self)])
        let parsingAgain = RecordingTransformer()
        relaunched.service.configureTransformer(decoding: Profile.self)
        relaunched.service.configure {
            $0.pipeline[.parsing].add(parsingAgain)
            $0.pipeline[.model].cacheUsing(cache)
        }
        let warm = relaunched.service.resource("/a/b")
        await warm.cacheCheckCompleted()
        #expect(warm.latestData?.content as? Profile == Profile(name: "Ada"))
        #expect(parsingAgain.seen.isEmpty)
        #expect(relaunched.network.sent.isEmpty)
    }
}
