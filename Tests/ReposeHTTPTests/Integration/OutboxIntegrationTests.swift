import Foundation
import ReposeStorage
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// The outbox over real HTTP: writes queued while the server's store is offline (every request reset), kept on disk
/// across a relaunch of the service, and delivered once each, in order, when the network comes back (rules M8–M11).
@MainActor
@Suite("The outbox over real HTTP", .checksLifetimes, .hangLimit)
final class OutboxIntegrationTests {
    let server: LoopbackServer
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-http-\(UUID().uuidString)")
    let reconnected = SignalSource<Void>()
    let token = Token()
    /// A service without an outbox, to switch the store on and off and read its log.
    let admin: Service

    /// The credential the app holds, renewed between launches.
    final class Token: @unchecked Sendable {
        // Safe: only touched on the main actor, by the test and the configured mutator.
        var value = "t1"
    }

    init() async throws {
        server = try await LoopbackServer()
        admin = Service(baseURL: "http://127.0.0.1:\(server.port)", options: .init(reconnected: nil))
        LifetimeCheck.track(admin)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// One launch of the app: a service over the test's folder whose store writes use the outbox and carry the
    /// current credential.
    func launch() -> Service {
        let token = token
        let service = Service(
            baseURL: "http://127.0.0.1:\(server.port)",
            options: .init(reconnected: reconnected.signal, outbox: .files(in: folder)))
        LifetimeCheck.track(service)
        service.configure("/store/**") {
            $0.usesOutbox = true
            $0.mutateRequests { $0.setValue("Bearer \(token.value)", forHTTPHeaderField: "Authorization") }
        }
        return service
    }

    private func setOffline(_ offline: Bool) async throws {
        let info = await admin.resource("/store-offline").withParam("on", offline ? "1" : "0").load().responseInfo
        try #require(info.response.error == nil)
    }

    private func storeLog() async throws -> [[String: Any]] {
        let info = await admin.resource("/store-log").load().responseInfo
        return try #require(info.response.entity?.content as? [[String: Any]])
    }

    /// The folder's files, read on its queue once what is queued there is done.
    private func files() async -> [String] {
        await OutboxFixture.files(in: folder).keys.sorted()
    }

    @Test("M8 M9 M10 M11 writes queued offline survive a relaunch and arrive once each, in order, with their keys")
    func offlineWritesArriveAfterRelaunch() async throws {
        try await setOffline(true)
        var first: Service? = launch()
        let note = try #require(first?.resource("/store/notes/1"))
        let other = try #require(first?.resource("/store/notes/2"))
        let requests = [
            note.request(.put, json: ["text": "a"], showing: .replace(with: ["text": "a"])),
            note.request(.patch, json: ["text": "b"], showing: .merge(["text": "b"])),
            note.request(.patch, json: ["pinned": true], showing: .merge(["pinned": true])),
            other.request(.put, json: ["text": "x"], showing: .replace(with: ["text": "x"])),
        ]
        await first?.outbox.idle()
        #expect(first?.outbox.status.pending.count == 4)
        #expect(note.jsonDict["text"] as? String == "b" && note.jsonDict["pinned"] as? Bool == true)
        #expect(await OutboxFixture.stored(in: folder).count == 4)

        first = nil  // the app quits
        for request in requests { #expect(await request.responseInfo.response.isCancellation) }
        token.value = "t2"
        let second = launch()
        let relaunched = second.resource("/store/notes/1")
        await second.outbox.idle()  // read, and tried at launch: still offline
        #expect(second.outbox.status.pending.count == 4)
        #expect(relaunched.jsonDict["text"] as? String == "b" && relaunched.jsonDict["pinned"] as? Bool == true)
        #expect(second.resource("/store/notes/2").jsonDict["text"] as? String == "x")

        try await setOffline(false)
        reconnected.send(())
        await second.outbox.idle()
        #expect(second.outbox.status.pending.isEmpty)
        #expect(await files().isEmpty)
        let writes = try await storeLog().filter { $0["method"] as? String != "GET" }
        let arrived = writes.map { "\($0["method"] ?? "") \($0["path"] ?? "") \($0["body"] ?? "")" }
        #expect(
            arrived.filter { $0.contains("notes/1") } == [
                #"PUT /store/notes/1 {"text":"a"}"#, #"PATCH /store/notes/1 {"text":"b"}"#,
                #"PATCH /store/notes/1 {"pinned":true}"#,
            ])
        #expect(arrived.filter { $0.contains("notes/2") } == [#"PUT /store/notes/2 {"text":"x"}"#])
        let keys = writes.compactMap { $0["key"] as? String }
        #expect(keys.count == 4 && Set(keys).count == 4)
        #expect(writes.allSatisfy { $0["authorization"] as? String == "Bearer t2" })
        let stored = await second.resource("/store/notes/1").load().responseInfo
        #expect(stored.response.entity?.jsonDict["text"] as? String == "b")
        #expect(stored.response.entity?.jsonDict["pinned"] as? Bool == true)
        #expect(relaunched.currentState.pendingChanges == 0)
    }

    @Test("M9 a kept write the server refuses ends: its change goes and the outbox reports the failure")
    func refusedAfterWaiting() async throws {
        // Seeded through another session: on Linux, a write on a kept-alive connection that the server then drops
        // without an answer waits for the request timeout (URLSession retries it on a fresh connection and stalls),
        // so the app's first connection opens while the store is offline.
        _ = await admin.resource("/store/notes/9").request(.put, json: ["text": "server"]).responseInfo
        try await setOffline(true)
        let service = launch()
        let note = service.resource("/store/notes/9")
        note.overrideLocalData(with: Entity<Any>(content: ["text": "server"], contentType: "application/json"))
        let refused = note.withParam("status", "422").request(
            .patch, json: ["text": "mine"], showing: .merge(["text": "mine"]), on: note)
        await service.outbox.idle()
        #expect(note.jsonDict["text"] as? String == "mine")
        try await setOffline(false)
        await service.outbox.send()  // the async form: returns once the write has its answer
        #expect(refused.state == .completed)
        #expect(await refused.responseInfo.response.error?.httpStatusCode == 422)
        #expect(note.jsonDict["text"] as? String == "server")
        #expect(service.outbox.status.failures.map(\.error.httpStatusCode) == [422])
        #expect(await files().isEmpty)
    }
}
