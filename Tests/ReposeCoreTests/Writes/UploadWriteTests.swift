import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// A multipart upload is a member of the `request(...)` family like any write: it shows an optimistic change and
/// takes per-call options (rules M1, M3, M4, M6), but never waits in the outbox (M8).
@MainActor
@Suite("Uploads as writes: optimistic changes and options", .checksLifetimes)
struct UploadWriteTests {
    let harness = Harness()
    var album: Resource { harness.service.resource("/albums/7") }
    var photos: Resource { harness.service.resource("/albums/7/photos") }

    /// Loads `{"title": "Holiday", "photos": 1}` into the album.
    private func loadedAlbum() async {
        await harness.answer(
            album.load(), contentType: "application/json", text: #"{"title": "Holiday", "photos": 1}"#)
    }

    private func upload(
        showing change: OptimisticChange? = nil, options: RequestOptions = RequestOptions()
    ) -> Request {
        photos.request(
            .post, multipart: [.field("caption", "Dawn")], showing: change, on: album, options: options)
    }

    @Test("M1 M3 an upload's change shows on its target at once and is gone, alone, when the upload fails")
    func changeShowsThenFails() async {
        await loadedAlbum()
        let observer = RecordingObserver()
        album.addObserver(observer)
        let sending = upload(showing: .merge(["photos": 2]))
        #expect(album.jsonDict["photos"] as? Int == 2)
        #expect(album.currentState.pendingChanges == 1)
        #expect(harness.network.sent.last?.httpMethod == "POST")
        await harness.answer(sending, status: 500)
        #expect(album.jsonDict["photos"] as? Int == 1)
        #expect(album.currentState.pendingChanges == 0)
        #expect(observer.events == ["observerAdded", "newData(optimistic)", "newData(optimistic)"])
    }

    @Test("M4 a successful upload's change stays until the target's reload brings the server's data")
    func changeConfirmedByReload() async throws {
        await loadedAlbum()
        album.addObserver(owner: harness) { _, _ in }
        await harness.answer(upload(showing: .merge(["photos": 2])), status: 201)
        #expect(album.jsonDict["photos"] as? Int == 2)  // not back to 1 while the reload runs
        harness.scheduler.advance()
        let reload = try #require(album.loadRequests.first)
        await harness.answer(
            reload, contentType: "application/json", text: #"{"title": "Holiday", "photos": 2}"#)
        #expect(album.currentState.pendingChanges == 0)
        #expect(album.record.serverData?.jsonDict["photos"] as? Int == 2)
    }

    @Test("M6 an upload's own invalidation option invalidates its target and parent when it succeeds")
    func invalidationOption() async {
        await loadedAlbum()
        await harness.answer(photos.load(), text: "[]")
        await harness.answer(upload(options: RequestOptions(invalidation: .targetAndParent)), status: 201)
        #expect(!photos.isUpToDate && !album.isUpToDate)
    }

    @Test("M6 without an option or configuration, a successful upload changes no resource")
    func noInvalidationByDefault() async {
        await loadedAlbum()
        await harness.answer(photos.load(), text: "[]")
        await harness.answer(upload(), status: 201)
        #expect(photos.isUpToDate && album.isUpToDate)
    }

    @Test("M8 an upload never waits in the outbox: configured or asked for, it is sent at once and fails offline")
    func neverInTheOutbox() async {
        harness.service.configure("/albums/**") { $0.usesOutbox = true }
        let sending = upload(showing: .merge(["photos": 2]), options: RequestOptions(usesOutbox: true))
        #expect(harness.network.sent.last?.httpMethod == "POST")
        await harness.network.fail(with: URLError(.notConnectedToInternet))
        let info = await sending.responseInfo
        #expect(info.response.error != nil)
        #expect(harness.service.outbox.status.pending.isEmpty)
        #expect(album.currentState.pendingChanges == 0)
    }
}
