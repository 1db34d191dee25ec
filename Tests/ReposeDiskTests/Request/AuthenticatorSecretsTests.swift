import Foundation
import ReposeStorage
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// Where an authenticator's credential may go: onto the wire, and nowhere else.
@MainActor
@Suite("R9 the credential stays out of disk and logs", .checksLifetimes, .hangLimit)
final class AuthenticatorSecretsTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("repose-r9-\(UUID().uuidString)")
    let harness = Harness()
    let cache: FileEntityCache
    let recorder = RecordingLogHandler()

    init() {
        cache = FileEntityCache(directory: root)
        let cache = self.cache
        let handler = recorder.handler
        // The refresh runs in a task of its own: its lines go to the recorder too.
        let auth = Authenticator(credential: "s3cret-first") { service in
            try await ReposeLog.withEnabled(.all) {
                try await ReposeLog.withHandler(handler) {
                    try await service.resource("/auth/token").request(.post).content(as: String.self)
                }
            }
        }
        harness.service.configure {
            $0.pipeline[.rawData].cacheUsing(cache)
            $0.authenticator = auth
        }
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    @Test("R9 after a refresh, no cache file and no log line holds either credential")
    func nowhereButTheWire() async throws {
        let resource = harness.service.resource("/items")
        await resource.cacheCheckCompleted()
        let network = harness.network
        try await ReposeLog.withEnabled(.all) {
            try await ReposeLog.withHandler(recorder.handler) {
                let load = resource.load()
                await network.respond(status: 401, contentType: "text/plain", text: "no")
                await waitUntil { network.sent.count == 2 }
                await network.respond(status: 200, contentType: "text/plain", text: "s3cret-second")
                await waitUntil { network.sent.count == 3 }
                await network.respond(status: 200, contentType: "text/plain", text: "the items")
                let info = await load.responseInfo
                try #require(info.response.entity != nil)
            }
        }
        cache.workQueue.sync {}  // every write has landed

        #expect(network.sent.last?.header("Authorization") == "Bearer s3cret-second")
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.allObjects ?? []
        let contents = files.compactMap { ($0 as? URL).flatMap { try? Data(contentsOf: $0) } }
        #expect(contents.contains { $0.range(of: Data("the items".utf8)) != nil }, "the load was cached")
        for data in contents {
            #expect(data.range(of: Data("s3cret".utf8)) == nil)
        }
        #expect(recorder.lines.contains { $0.hasPrefix("network: POST") && $0.contains("/auth/token") })
        for line in recorder.lines {
            #expect(!line.contains("s3cret"), "\(line)")
        }
    }
}
