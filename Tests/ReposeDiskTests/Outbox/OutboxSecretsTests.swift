import Foundation
import Testing

@testable import Repose
@testable import ReposeStorage
@testable import ReposeTestSupport

/// No secret on disk: a write that carries one stays in memory and says so; a stored write goes only to the origin
/// of the service that reads it, and anything else in the folder is removed unread (rule T3).
@MainActor
@Suite("The outbox keeps secrets off the disk", .checksLifetimes, .hangLimit)
final class OutboxSecretsTests {
    let app = OutboxFixture()
    let kept = RequestOptions(usesOutbox: true)

    /// Makes `mutate` and checks that it is in memory only, with no file, and that it is still sent now.
    private func expectInMemoryOnly(_ mutate: () -> Request) async {
        let request = mutate()
        await app.settle()
        #expect(app.outbox.status.pending.map(\.isStored) == [false])
        #expect(await app.files().isEmpty)
        #expect(app.network.pendingCount == 1)
        await app.network.respond(status: 204)
        #expect(await request.responseInfo.response.error == nil)
    }

    @Test(
        "T3 a write whose URL has a parameter that names a secret is never written to disk, and is still sent",
        arguments: [
            "access_token", "token", "api_key", "apikey", "key", "secret", "password", "signature", "sig",
            "Access-Token", "API_KEY", "client_secret", "refresh_token",
        ])
    func secretParameter(_ name: String) async {
        await expectInMemoryOnly {
            app.service.resource("/notes/1").withParam(name, "s3cret").request(.post, json: ["a": 1], options: kept)
        }
    }

    @Test("T3 the app can name more secret parameters")
    func appNamedParameter() async {
        app.outbox.secretParameterNames.insert("session")
        await expectInMemoryOnly {
            app.service.resource("/notes/1").withParam("session", "s3cret").request(.post, options: kept)
        }
    }

    @Test("T3 a write whose URL has a user name or password stays in memory")
    func userInfo() async {
        await expectInMemoryOnly {
            app.service.resource(absoluteURL: "https://me:pw@api.example.com/notes/1").request(.post, options: kept)
        }
    }

    @Test(
        "T3 a write with a header of its own that carries a secret stays in memory",
        arguments: ["X-Auth-Token", "X-API-Key"])
    func secretHeader(_ name: String) async {
        await expectInMemoryOnly {
            app.service.resource("/notes/1").request(
                .post, json: ["a": 1], headers: [name: "s3cret"], options: kept)
        }
    }

    @Test("T3 a write to another origin than the service's stays in memory, since no launch would read it back")
    func otherOrigin() async {
        await expectInMemoryOnly {
            app.service.resource(absoluteURL: "https://other.example.com/notes/1").request(.post, options: kept)
        }
    }

    @Test("T3 a write with an ordinary parameter is written to disk")
    func ordinaryParameter() async {
        app.service.resource("/notes/1").withParam("page", "2").request(.post, json: ["a": 1], options: kept)
        await app.settle()
        #expect(app.outbox.status.pending.map(\.isStored) == [true])
        #expect(await app.stored().map(\.write.url) == ["https://api.example.com/notes/1?page=2"])
    }

    @Test("T3 planted lines and files are never sent: another host, another origin, links, garbage, bad keys")
    func plantedFiles() async throws {
        await app.settle()  // the first launch's read is done: it cannot see a file half planted
        app.service = nil
        try app.plant("https://evil.example.com/steal")
        try app.plant("http://api.example.com/notes/1")  // another scheme: another origin
        try app.plant("https://api.example.com:8443/notes/1")  // another port
        try app.plant("https://api.example.com/notes/ok")  // the one that belongs
        try app.plant("https://api.example.com/notes/nokey", key: "")
        try app.plant("https://api.example.com/notes/slash", key: "../a")  // a key that is no name
        try app.plant(line: Data("+k1 not json\n".utf8))
        try app.plant(line: Data("garbage\n\n-\n+\n".utf8))
        try Data(#"{"url": "https://evil.example.com"}"#.utf8).write(to: app.folder.appendingPathComponent("notes.txt"))
        try Data().write(to: app.folder.appendingPathComponent("x.write"))
        try FileManager.default.createSymbolicLink(
            atPath: app.folder.appendingPathComponent("link.write").path, withDestinationPath: "/etc/passwd")
        try FileManager.default.createDirectory(
            at: app.folder.appendingPathComponent("sub"), withIntermediateDirectories: false)
        app.service = app.makeService()
        await app.settle()
        #expect(app.network.sent.map { $0.url } == ["https://api.example.com/notes/ok"])
        #expect(app.credentials(sentSince: 0) == ["Bearer alice"])
        #expect(Set(await app.files().keys) == ["sub", OutboxFiles.journalName])
        #expect(await app.stored().map(\.write.url) == ["https://api.example.com/notes/ok"])
    }

    @Test("T3 a journal planted as a link is removed unfollowed: its target is neither read nor written")
    func plantedJournalLink() async throws {
        await app.settle()
        app.service = nil
        let target = app.folder.deletingLastPathComponent().appendingPathComponent("target-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: target) }
        try Data().write(to: target)
        try FileManager.default.createSymbolicLink(
            atPath: app.folder.appendingPathComponent(OutboxFiles.journalName).path, withDestinationPath: target.path)
        app.service = app.makeService()
        await app.settle()
        app.service.resource("/notes/1").request(.post, json: ["a": 1], options: kept)
        await app.settle()
        #expect(app.outbox.status.pending.map(\.isStored) == [true])
        #expect(try Data(contentsOf: target).isEmpty)
        #expect(await app.stored().count == 1)
    }

    @Test("T3 a write of another partition is neither sent nor removed")
    func otherPartition() async throws {
        await app.settle()  // the first launch's read is done: it cannot see a file half planted
        app.service = nil
        try app.plant("https://api.example.com/notes/1", partition: "bob")
        app.service = app.makeService()
        await app.settle()
        #expect(app.network.sent.isEmpty)
        #expect(await app.stored().map(\.partition) == ["bob"])
    }
}
