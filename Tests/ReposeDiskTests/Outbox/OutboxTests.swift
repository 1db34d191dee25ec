import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
@testable import ReposeStorage
#endif

/// The outbox with the network scripted by hand: what it keeps, when it sends, what each attempt carries
/// (rules M8–M11).
@MainActor
@Suite("The outbox", .checksLifetimes, .hangLimit)
final class OutboxTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID().uuidString)")
    let network = ManualNetwork()
    let scheduler = TestScheduler(now: .seconds(1000))
    let reconnected = SignalSource<Void>()
    var service: Service!
    let token = Token()

    /// The credential the app holds, which it may renew between attempts.
    final class Token: @unchecked Sendable {
        // Safe: only touched on the main actor, by the test and the configured mutator.
        var value = "t1"
    }

    init() {
        service = makeService()
    }

    deinit {
        Task { [network] in await network.failPending() }
        try? FileManager.default.removeItem(at: folder)
    }

    /// A service over the test's folder, whose notes use the outbox and carry the current token.
    func makeService() -> Service {
        let token = token
        let service = Service(
            baseURL: "https://api.example.com",
            options: .init(
                networking: network, scheduler: scheduler, reconnected: reconnected.signal, outbox: .files(in: folder)))
        LifetimeCheck.track(service)
        service.configure("/notes/**") { $0.usesOutbox = true }
        service.configure {
            $0.headers["X-Client"] = "tests"
            $0.mutateRequests { $0.setValue("Bearer \(token.value)", forHTTPHeaderField: "Authorization") }
        }
        return service
    }

    var outbox: Outbox { service.outbox }

    /// Loads `{"text": "a"}` into the note at `path`.
    func note(_ path: String = "/notes/1") async -> Resource {
        let note = service.resource(path)
        let load = note.load()
        await network.respond(status: 200, contentType: "application/json", text: #"{"text": "a"}"#)
        _ = await load.responseInfo
        return note
    }

    /// Waits until the folder is read and every write is on the device: then what may go is on its way. A
    /// write is sent only after both (rules T1, T2), so a test that answers requests waits for this first.
    func settle() async {
        await outbox.wait { !$0.isReading && $0.book.storingCount == 0 }
    }

    /// Fails the oldest request as an offline network would, and waits until the outbox has taken it in.
    func goOffline() async {
        await settle()
        await network.fail(with: URLError(.notConnectedToInternet))
        await outbox.idle()
    }

    /// Answers the oldest request sent, and waits until the outbox has heard the answer.
    func answerNext(status: Int = 204) async {
        await settle()
        let url = network.oldestPending?.url
        var attempt: Request?
        outbox.book.visit { entry in
            if attempt == nil, case .sending(let request) = entry.phase, entry.data.url == url { attempt = request }
        }
        await network.respond(status: status)
        _ = await attempt?.responseInfo
    }

    /// The files in the folder, by name.
    func files() async -> [String: Data] {
        await OutboxFixture.files(in: folder)
    }

    @Test("M8 a write that fails for want of a network waits with its change, and goes again on reconnect")
    func keptUntilReconnect() async throws {
        let note = await note()
        let edit = note.request(.patch, json: ["text": "b"], showing: .merge(["text": "b"]))
        await goOffline()
        #expect(note.jsonDict["text"] as? String == "b")
        #expect(edit.state == .inProgress)
        #expect(outbox.status.pending.map(\.isWaiting) == [true])
        #expect(network.pendingCount == 0)
        reconnected.send(())
        #expect(network.pendingCount == 1)
        await answerNext()
        let info = await edit.responseInfo
        #expect(info.response.error == nil)
        #expect(outbox.status.pending.isEmpty)
        #expect(note.jsonDict["text"] as? String == "b")  // settled: it stays until the reload brings data
        #expect(await files().isEmpty)
    }

    @Test("M8 any request of the family that changes data uses the outbox as configured, change or not; a GET never")
    func plainRequestsToo() async {
        let note = await note()
        let write = note.request(.put, text: "b")
        await goOffline()
        #expect(write.state == .inProgress)
        #expect(outbox.status.pending.count == 1)
        let read = note.request(.get)
        #expect(outbox.status.pending.count == 1)
        await network.fail(with: URLError(.notConnectedToInternet))
        #expect(await read.responseInfo.response.error?.cause is URLError)
        let optedOut = note.request(.post, options: RequestOptions(usesOutbox: false))
        await network.fail(with: URLError(.notConnectedToInternet))
        #expect(await optedOut.responseInfo.response.error != nil)
        #expect(outbox.status.pending.count == 1)
    }

    @Test("M6 M8 a kept write keeps its own invalidation option across a relaunch")
    func keptInvalidation() async throws {
        let first = await note()
        first.request(.patch, json: ["text": "b"], options: RequestOptions(invalidation: .targetAndParent))
        await goOffline()
        _ = await files()
        service = nil
        service = makeService()
        let note = service.resource("/notes/1")
        let parent = service.resource("/notes")
        await outbox.wait { !$0.isReading }
        await settle()
        #expect(network.oldestPending?.httpMethod == "PATCH")  // sent at launch; the loads go meanwhile
        for resource in [note, parent] {
            let load = resource.load()
            await network.respond(toPendingAt: 1, body: Data("x".utf8))
            _ = await load.responseInfo
        }
        #expect(note.isUpToDate && parent.isUpToDate)
        await answerNext()
        #expect(outbox.status.pending.isEmpty)
        #expect(!note.isUpToDate && !parent.isUpToDate)
    }

    @Test("M9 the writes of one resource go one at a time, in order; another resource's go meanwhile")
    func orderPerResource() async {
        let first = await note("/notes/1")
        let second = await note("/notes/2")
        let edits = [
            first.request(.patch, json: ["n": 1], showing: .merge(["n": 1])),
            first.request(.patch, json: ["n": 2], showing: .merge(["n": 2])),
            second.request(.put, json: ["n": 3]),
        ]
        await settle()
        #expect(network.sent.suffix(2).map { URL(string: $0.url)?.path } == ["/notes/1", "/notes/2"])
        #expect(network.pendingCount == 2)
        #expect(first.jsonDict["n"] as? Int == 2)
        await answerNext()  // the first edit of /notes/1: the second goes now
        #expect(network.pendingCount == 2)
        #expect(String(data: network.sent.last?.body ?? Data(), encoding: .utf8) == #"{"n":2}"#)
        await answerNext()
        await answerNext()
        for edit in edits { #expect(await edit.responseInfo.response.error == nil) }
    }

    @Test("M9 a refusal after waiting ends the write: its change goes and the failure is reported")
    func refusalIsReported() async throws {
        let note = await note()
        let edit = note.request(.patch, json: ["text": "b"], showing: .merge(["text": "b"]))
        await goOffline()
        reconnected.send(())
        await answerNext(status: 422)
        #expect(note.jsonDict["text"] as? String == "a")
        #expect(outbox.status.pending.isEmpty)
        let failure = try #require(outbox.status.failures.first)
        #expect(failure.error.httpStatusCode == 422)
        #expect(failure.item.url == note.url)  // a URL, comparable with the resource's
        #expect(await edit.responseInfo.response.error?.httpStatusCode == 422)
        outbox.clearFailures()
        #expect(outbox.status.failures.isEmpty)
    }

    @Test("M9 a server error on a kept write makes it wait again; a refusal at the first attempt is reported too")
    func serverErrorWaitsAgain() async {
        let note = await note()
        let edit = note.request(.patch, json: ["text": "b"], showing: .merge(["text": "b"]))
        await goOffline()
        reconnected.send(())
        await answerNext(status: 503)
        #expect(outbox.status.pending.map(\.isWaiting) == [true])
        #expect(note.jsonDict["text"] as? String == "b")
        let refused = note.request(.patch, json: ["x": 1], showing: .merge(["x": 1]))
        await settle()
        reconnected.send(())
        await answerNext()
        await answerNext(status: 400)
        #expect(await refused.responseInfo.response.error?.httpStatusCode == 400)
        #expect(outbox.status.failures.map(\.error.httpStatusCode) == [400])
        #expect(note.jsonDict["x"] == nil)
        _ = await edit.responseInfo
    }

    @Test("M10 each write carries one Idempotency-Key, unchanged on every attempt")
    func idempotencyKey() async throws {
        let note = await note()
        _ = note.request(.patch, json: ["text": "b"])
        let other = note.request(.delete)
        await goOffline()
        reconnected.send(())
        await answerNext()
        await answerNext()
        _ = await other.responseInfo
        let keys = network.sent.dropFirst().map { $0.header("Idempotency-Key") }
        try #require(keys.count == 3)  // a wrong count fails this test, not the whole run
        #expect(keys[0] != nil && keys[0] == keys[1])
        #expect(keys[2] != nil && keys[2] != keys[0])
    }

    @Test("M11 every attempt is built anew: configured headers and mutators run again, with today's credential")
    func attemptsAreRebuilt() async {
        let note = await note()
        let edit = note.request(
            .patch, json: ["text": "b"], headers: ["X-Trace": "7", "X-Auth-Token": "s3cret"])
        await goOffline()
        token.value = "t2"
        reconnected.send(())
        await answerNext()
        _ = await edit.responseInfo
        let attempts = network.sent.dropFirst()
        #expect(attempts.map { $0.header("Authorization") } == ["Bearer t1", "Bearer t2"])
        #expect(attempts.allSatisfy { $0.header("X-Client") == "tests" })
        #expect(attempts.allSatisfy { $0.header("X-Trace") == "7" })
        #expect(attempts.allSatisfy { $0.header("Content-Type") == "application/json" })
    }

    @Test("M8 T3 the folder is private, its journal holds each write as data, and no credential header is written")
    func filesOnDisk() async throws {
        let note = await note()
        let edit = note.request(
            .post, json: ["text": "b"], showing: .merge(["text": "b"]),
            headers: [
                "X-Trace": "7", "Cookie": "c=s3cret", "authorization": "Bearer s3cret",
                "Proxy-Authorization": "Basic s3cret",
            ])
        await goOffline()
        let files = await files()
        let data = try #require(files[OutboxFiles.journalName])
        #expect(files.count == 1)
        let text = String(decoding: data, as: UTF8.self)
        #expect(!text.contains("s3cret") && !text.contains("Bearer"))
        let entries = OutboxJournal(data).pending
        let entry = try #require(entries.first)
        #expect(entries.count == 1)
        let stored = try JSONDecoder().decode(StoredWrite.self, from: entry.json)
        #expect(stored.write.method == "POST")
        #expect(stored.write.url == "https://api.example.com/notes/1")
        #expect(stored.write.body == Data(#"{"text":"b"}"#.utf8))
        #expect(stored.write.headers == ["X-Trace": "7", "Content-Type": "application/json"])
        #expect(stored.write.createdAt == 1000)
        #expect(entry.key == stored.key)
        #expect(try permissions(folder) == 0o700)
        #expect(try permissions(folder.appendingPathComponent(OutboxFiles.journalName)) == 0o600)
        edit.cancel()
        #expect(note.jsonDict["text"] as? String == "a")
        #expect(await self.files().isEmpty)
    }

    private func permissions(_ url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test("M8 after a relaunch the kept write's change shows again, and the write goes at launch")
    func relaunch() async throws {
        let first = await note()
        let edit = first.request(.patch, json: ["text": "b"], showing: .merge(["text": "b"]))
        let closure = first.request(.patch, json: ["z": 1], showing: .update { $0 })
        await goOffline()
        _ = await files()  // written
        service = nil  // the app quits: its requests end, its writes stay on disk
        #expect(await edit.responseInfo.response.isCancellation)
        #expect(await closure.responseInfo.response.isCancellation)
        service = makeService()
        let note = service.resource("/notes/1")
        await outbox.wait { !$0.isReading }
        #expect(note.jsonDict["text"] as? String == "b")  // over no data yet: the change alone
        #expect(note.currentState.pendingChanges == 1)  // a closure is not data: its change is gone
        #expect(outbox.status.pending.count == 2)
        #expect(network.sent.last?.httpMethod == "PATCH")  // sent at launch
        await answerNext()
        await answerNext()
        #expect(outbox.status.pending.isEmpty)
        #expect(await files().isEmpty)
    }

    @Test("M8 after a relaunch, a resource first asked for once the journal is read shows the kept change at once")
    func relaunchThenNewResource() async throws {
        let first = await note()
        let edit = first.request(.patch, json: ["text": "b"], showing: .merge(["text": "b"]))
        await goOffline()
        _ = await files()  // written
        service = nil
        #expect(await edit.responseInfo.response.isCancellation)
        service = makeService()
        await outbox.wait { !$0.isReading }
        let note = service.resource("/notes/1")  // made after the read: the read had no resource to show it on
        #expect(note.jsonDict["text"] as? String == "b")
        #expect(note.currentState.pendingChanges == 1)
        await answerNext()
        #expect(outbox.status.pending.isEmpty)
    }

    @Test("M8 a damaged line in the journal or a foreign file in the folder is removed, never sent")
    func damagedFiles() async throws {
        await settle()  // the first launch's read is done: it cannot see a file half written
        service = nil
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let journal = """
            +k1 {not json
            +k2 {"version": 99, "sequence": 0, "mutation": {}}
            +k3 {"version": 1, "sequence": 0, "mutation": {"url": "https://api.example.com/notes/1"}}
            +k4 {"version": 1, "seq
            """
        try Data(journal.utf8).write(to: folder.appendingPathComponent(OutboxFiles.journalName))
        try Data("{}".utf8).write(to: folder.appendingPathComponent("y.write"))
        service = makeService()
        await outbox.idle()
        #expect(outbox.status.pending.isEmpty)
        #expect(await files().isEmpty)
        #expect(network.sent.isEmpty)
    }

    @Test("K7 M8 wipeResources empties the outbox: nothing of one user is sent with the next one's credential")
    func wipeEmptiesOutbox() async {
        let note = await note()
        let edit = note.request(.patch, json: ["text": "b"], showing: .merge(["text": "b"]))
        await goOffline()
        service.wipeResources()
        #expect(await edit.responseInfo.response.isCancellation)
        #expect(outbox.status.pending.isEmpty)
        #expect(await files().isEmpty)
        reconnected.send(())
        #expect(network.pendingCount == 0)
    }

    @Test("M8 a task waiting on the outbox stops waiting when cancelled, and the write it waited for goes on")
    func cancelledWaitEnds() async {
        let note = await note()
        note.request(.patch, json: ["text": "b"])
        await settle()
        #expect(network.pendingCount == 1)  // on its way, and never answered
        let waiting = Task { await outbox.send() }
        await Task.yield()
        waiting.cancel()
        await waiting.value
        #expect(outbox.status.pending.count == 1)
        #expect(network.pendingCount == 1)
    }
}
