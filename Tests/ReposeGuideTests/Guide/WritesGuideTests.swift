import Foundation
import ReposeTesting
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// The Writes guide's code, run: its changes show at once and roll back alone, its awaited write reports both
/// outcomes, and its screen follows the outbox.
@MainActor
@Suite("The Writes guide, run", .checksLifetimes, .hangLimit)
struct WritesGuideTests {
    let network = StubNetworkingProvider()
    let api: Service

    init() {
        api = Service(baseURL: "https://api.example.com", options: .init(networking: network, reconnected: nil))
        LifetimeCheck.track(api)
    }

    @Test("M1 M3 the guide's two changes show at once; the refused one rolls back alone")
    func layers() async {
        // After the star, the server counts it: whether the star's reload lands before the refusal or after, the
        // count shown stays 214.
        network.stub(
            .get, "https://api.example.com/repos/ada/engine",
            responses: [.json(["stargazers_count": 213]), .json(["stargazers_count": 214])])
        network.stub(.patch, "https://api.example.com/repos/ada/engine", status: 403, json: ["message": "no"])
        network.stub(.put, "https://api.example.com/user/starred/ada/engine", json: [:])
        let loaded = api.resource("/repos/ada/engine")
        _ = await loaded.load().response
        let repo = WritesGuide.layers(api: api)
        #expect(repo.jsonDict["archived"] as? Bool == true)
        #expect(repo.jsonDict["stargazers_count"] as? Int == 214)
        #expect(repo.currentState.pendingChanges == 2)
        _ = await repo.allRequests.first?.response  // the refused PATCH
        #expect(repo.jsonDict["archived"] == nil)
        #expect(repo.jsonDict["stargazers_count"] as? Int == 214)
    }

    @Test("M3 the guide's awaited write returns the answer, or throws after its rollback")
    func awaited() async {
        network.stub(
            .patch, "https://api.example.com/repos/ada/engine",
            responses: [.json(["topics": ["history"]]), .json(["message": "no"], status: 422)])
        api.configure("/repos/**", requestMethods: [.patch]) { $0.writeResponseIsResource = true }  // no reload
        let repo = api.resource("/repos/ada/engine")
        #expect(await WritesGuide.awaited(repo: repo).hasPrefix("saved:"))
        #expect(repo.currentState.pendingChanges == 0)
        #expect(await WritesGuide.awaited(repo: repo).hasPrefix("rolled back:"))
        #expect(repo.currentState.pendingChanges == 0)
        #expect(repo.jsonDict["topics"] as? [String] == ["history"])  // the first answer, beneath no change
    }

    @Test("M9 the guide's screen counts what the outbox holds and shows a refusal")
    func screen() async {
        network.stub(.patch, "https://api.example.com/notes/7", status: 422, json: ["message": "too long"])
        api.configure("/notes/**") { $0.usesOutbox = true }
        let screen = WritesGuideScreen()
        screen.watch(api)
        #expect(screen.syncLabel.text == "Saved")
        let edit = api.resource("/notes/7").request(.patch, json: ["text": "x"])
        #expect(screen.syncLabel.text == "Saving…")
        _ = await edit.response
        #expect(screen.syncLabel.text == "Saved")
        #expect(screen.shown.count == 1)
        #expect(screen.shown.first?.hasPrefix("Not saved: https://api.example.com/notes/7") == true)
    }

    @Test("M12 the guide's upload sends a multipart body; with its file gone, it fails at once into the banner")
    func upload() async throws {
        network.stub(.post, "https://api.example.com/albums/7/photos", status: 201, json: ["id": 1])
        let photo = FileManager.default.temporaryDirectory.appendingPathComponent("repose-photo-\(UUID()).jpg")
        try Data(repeating: 0xFF, count: 4096).write(to: photo)
        defer { try? FileManager.default.removeItem(at: photo) }
        let (bar, banner) = (WritesGuideBar(), WritesGuideLabel())
        WritesGuide.upload(
            api: api, photoURL: photo, metadataJSON: Data("{}".utf8), uploadBar: bar, banner: banner)
        await network.idle(timeout: .seconds(60))
        let sent = try #require(network.requests.last)
        #expect(sent.header("Content-Type")?.hasPrefix("multipart/form-data; boundary=repose-") == true)
        #expect(banner.text.isEmpty)

        try FileManager.default.removeItem(at: photo)
        WritesGuide.upload(
            api: api, photoURL: photo, metadataJSON: Data("{}".utf8), uploadBar: bar, banner: banner)
        await waitUntil { !banner.text.isEmpty }  // hooks of a failed request run on a later turn
        #expect(banner.text == "The file “\(photo.lastPathComponent)” could not be read for upload.")
        #expect(network.requests.count == 1)
    }
}
