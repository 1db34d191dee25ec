import Foundation
import ReposeStorage
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// An outbox belongs to an account: log-out forgets its writes, those not read from disk yet included, and no write
/// goes with another account's credential (rule T1); at launch the status never claims that nothing is pending
/// before the folder is read (rule T5).
@MainActor
@Suite("The outbox and accounts", .checksLifetimes, .hangLimit)
final class OutboxAccountTests {
    let app = OutboxFixture()

    /// Leaves `count` writes of the current account waiting in the folder, and quits the app.
    private func leaveWritesOnDisk(_ count: Int, path: String = "/notes/1") async {
        for index in 0..<count {
            app.service.resource(path).request(.post, json: ["i": index])
        }
        await app.goOffline()
        app.service = nil
    }

    @Test("T1 an account that logs out before the folder is read: 0 of its writes are sent, with any credential")
    func logOutBeforeTheFolderIsRead() async {
        await leaveWritesOnDisk(5)
        #expect(await app.stored().count == 5)
        let start = app.network.sent.count
        let gate = app.holdFolderQueue()
        app.service = app.makeService()  // launch: the read is queued behind the held queue
        #expect(app.outbox.status.isReading)
        app.service.wipeResources()  // alice logs out
        app.token.value = "bob"  // bob logs in
        gate.signal()
        await app.settle()
        app.reconnected.send(())
        await app.outbox.send()
        #expect(app.credentials(sentSince: start).isEmpty)
        #expect(app.outbox.status.isEmpty)
        #expect(await app.files().isEmpty)
    }

    @Test("T1 a wipe by pattern before the folder is read: the writes it matches never come back, the others do")
    func wipeByPatternBeforeTheFolderIsRead() async {
        app.service.resource("/notes/me").request(.post, json: ["mine": true])
        await leaveWritesOnDisk(1, path: "/notes/shared")
        let gate = app.holdFolderQueue()
        app.service = app.makeService()
        app.service.wipeResources(matching: "/notes/me")
        gate.signal()
        await app.settle()
        #expect(app.outbox.status.pending.map(\.url.absoluteString) == ["https://api.example.com/notes/shared"])
        #expect(await app.stored().count == 1)
    }

    @Test("T1 log-out removes only what was made before it: a write made after it, before the read, is kept")
    func writesAfterLogOutStay() async {
        await leaveWritesOnDisk(2)
        let gate = app.holdFolderQueue()
        app.service = app.makeService()
        app.service.wipeResources()
        app.token.value = "bob"
        app.service.resource("/notes/2").request(.post, json: ["by": "bob"])
        gate.signal()
        await app.settle()
        #expect(app.outbox.status.pending.count == 1)
        #expect(await app.stored().count == 1)
        #expect(app.credentials(sentSince: app.network.sent.count - 1) == ["Bearer bob"])
    }

    @Test("T1 writes go only while their account's partition is set, with its credential; caches share the value")
    func partitions() async throws {
        let cacheFolder = app.folder.appendingPathExtension("cache")
        defer { try? FileManager.default.removeItem(at: cacheFolder) }
        let cache = FileEntityCache(directory: cacheFolder)
        app.service.configure { $0.pipeline[.rawData].cacheUsing(cache) }
        app.service.partition = "alice"
        #expect(cache.partition == "alice")
        await app.settle()
        let kept = app.service.resource("/notes/1").request(.post, json: ["by": "alice"])
        let inMemory = app.service.resource("/notes/2").withParam("token", "s3cret").request(
            .post, json: ["m": 1], options: RequestOptions(usesOutbox: true))
        await app.goOffline()
        let start = app.network.sent.count

        app.service.partition = "bob"
        app.token.value = "bob"
        #expect(cache.partition == "bob")
        #expect(await kept.responseInfo.response.isCancellation)
        #expect(await inMemory.responseInfo.response.isCancellation)
        await app.settle()
        #expect(app.outbox.status.isEmpty)
        await app.outbox.send()
        #expect(app.credentials(sentSince: start).isEmpty)  // alice's write waits for alice
        #expect(await app.stored().count == 1)

        app.service.partition = "alice"
        app.token.value = "alice"
        await app.settle()  // read again, and sent at once
        #expect(app.outbox.status.pending.count == 1, "\(app.outbox.status.pending)")
        #expect(app.credentials(sentSince: start) == ["Bearer alice"])
        await app.network.respond(status: 204)
        await app.outbox.idle()
        #expect(app.outbox.status.isEmpty)
        #expect(await app.files().isEmpty)
    }

    @Test("T5 at launch, until the folder is read, the status never says that nothing is pending")
    func statusAtLaunch() async {
        await leaveWritesOnDisk(1)
        let gate = app.holdFolderQueue()
        app.service = app.makeService()
        var labels: [String] = []
        let subscription = app.outbox.state.observe { status in
            labels.append(status.isEmpty ? "All saved" : "Saving \(status.pending.count)")
        }
        #expect(app.outbox.status.isReading)
        #expect(!app.outbox.status.isEmpty)
        gate.signal()
        await app.settle()
        #expect(app.outbox.status.pending.count == 1)
        #expect(!labels.contains("All saved"))
        subscription.cancel()
    }
}
