import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// The outbox's folder gets the same checks as a cache's (rule T8): one that others could write to is made private
/// and emptied unread, and one that is a symbolic link is refused, so a stored write comes only from this user.
@MainActor
@Suite("The outbox's folder is private", .checksLifetimes, .hangLimit)
final class OutboxFolderTests {
    let app = OutboxFixture()
    let kept = RequestOptions(usesOutbox: true)

    private func mode(of url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return try #require(attributes[.posixPermissions] as? NSNumber).intValue & 0o777
    }

    @Test("T8 a folder others could write to is made 0700 and a write planted in it is removed unsent")
    func worldWritableFolder() async throws {
        await app.settle()
        app.service = nil
        try app.plant("https://api.example.com/notes/planted")
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: app.folder.path)
        app.service = app.makeService()
        await app.settle()
        #expect(app.network.sent.isEmpty)
        #expect(await app.files().isEmpty)
        #expect(try mode(of: app.folder) == 0o700)
    }

    @Test("T8 a folder that is a symbolic link is refused: nothing is read from it and writes stay in memory")
    func linkedFolderIsRefused() async throws {
        await app.settle()
        app.service = nil
        let target = app.folder.deletingLastPathComponent().appendingPathComponent("elsewhere-\(UUID().uuidString)")
        try FileManager.default.moveItem(at: app.folder, to: target)
        defer { try? FileManager.default.removeItem(at: target) }
        try FileManager.default.createSymbolicLink(at: app.folder, withDestinationURL: target)
        app.service = app.makeService()
        await app.settle()
        let request = app.service.resource("/notes/1").request(.put, json: ["a": 1], options: kept)
        await app.settle()
        #expect(app.outbox.status.pending.map(\.isStored) == [false])
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.path).isEmpty)
        await app.network.respond(status: 204)
        #expect(await request.responseInfo.response.error == nil)
    }
}
