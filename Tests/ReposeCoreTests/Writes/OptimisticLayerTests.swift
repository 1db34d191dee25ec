import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// Optimistic changes as layers over the server's data, with the network scripted by hand (rules M1–M5).
@MainActor
@Suite("Optimistic changes: layers over the server's data", .checksLifetimes)
struct OptimisticLayerTests {
    let harness = Harness()
    var repo: Resource { harness.service.resource("/repos/42") }

    /// Loads `{"name": "repose", "stars": 1}` into the repo, and returns an observer added afterwards.
    private func loadedRepo(etag: String = "\"v1\"") async -> RecordingObserver {
        await harness.answer(
            repo.load(), contentType: "application/json", text: #"{"name": "repose", "stars": 1}"#,
            headers: ["ETag": etag])
        let observer = RecordingObserver()
        repo.addObserver(observer)
        return observer
    }

    private var shown: [String: Any] { repo.jsonDict }

    @Test("M1 a change shows at once with one event, and the server's data stays beneath it")
    func changeShowsAtOnce() async {
        let observer = await loadedRepo()
        let star = repo.request(.patch, json: ["starred": true], showing: .merge(["starred": true]))
        #expect(shown["starred"] as? Bool == true)
        #expect(shown["name"] as? String == "repose")
        #expect(repo.record.serverData?.jsonDict["starred"] == nil)
        #expect(repo.currentState.pendingChanges == 1)
        #expect(observer.events == ["observerAdded", "newData(optimistic)"])
        #expect(harness.network.sent.last?.httpMethod == "PATCH")
        await harness.network.respond(status: 500)
        _ = await star.responseInfo
    }

    @Test("M2 changes stack in start order over the server's data")
    func changesStack() async {
        _ = await loadedRepo()
        let first = repo.request(.patch, json: [:], showing: .merge(["stars": 2, "label": "first"]))
        let second = repo.request(.patch, json: [:], showing: .merge(["stars": 3]))
        #expect(shown["stars"] as? Int == 3)
        #expect(shown["label"] as? String == "first")
        #expect(repo.currentState.pendingChanges == 2)
        await harness.network.failPending()
        _ = await first.responseInfo
        _ = await second.responseInfo
    }

    @Test("M3 a failed write removes only its change, with one event, while the other stays")
    func failureRemovesOnlyItsChange() async {
        let observer = await loadedRepo()
        let first = repo.request(.patch, json: [:], showing: .merge(["stars": 2, "label": "first"]))
        let second = repo.request(.patch, json: [:], showing: .merge(["stars": 3]))
        await harness.answer(first, status: 500)
        // Neither the server (1, no label) nor the first change (2, "first") would show 3 without a label: the
        // second change alone, over the server's data.
        #expect(shown["stars"] as? Int == 3)
        #expect(shown["label"] == nil)
        #expect(repo.currentState.pendingChanges == 1)
        #expect(observer.events.suffix(1) == ["newData(optimistic)"])
        #expect(observer.events.count == 4)  // added, two changes, one rollback
        await harness.answer(second, status: 500)
        #expect(shown["stars"] as? Int == 1)
        #expect(repo.currentState.pendingChanges == 0)
        #expect(repo.record.layers == nil)
    }

    @Test("M3 cancelling a write rolls its change back")
    func cancelRollsBack() async {
        _ = await loadedRepo()
        let star = repo.request(.put, showing: .merge(["starred": true]))
        star.cancel()
        #expect(shown["starred"] == nil)
        #expect(repo.currentState.pendingChanges == 0)
    }

    @Test("M4 a successful change stays until the reload it triggers brings data, then goes in the same event")
    func successWaitsForReload() async throws {
        let observer = await loadedRepo()
        let star = repo.request(.patch, json: ["starred": true], showing: .merge(["starred": true]))
        await harness.answer(star, status: 204)
        #expect(shown["starred"] as? Bool == true)  // no flicker back to the old data
        #expect(observer.events == ["observerAdded", "newData(optimistic)"])
        harness.scheduler.advance()  // the end of the turn: the observed, invalidated repo reloads
        let reload = try #require(repo.loadRequests.first)
        #expect(harness.network.sent.last?.httpMethod == "GET")
        await harness.answer(
            reload, contentType: "application/json", text: #"{"name": "repose", "stars": 2, "starred": true}"#)
        #expect(shown["stars"] as? Int == 2)
        #expect(repo.currentState.pendingChanges == 0)
        #expect(observer.events == ["observerAdded", "newData(optimistic)", "requested", "newData(network)"])
    }

    @Test("M4 a change shown on another resource goes when that resource's reload brings data, unobserved too")
    func changeOnAnotherResourceReloadsIt() async throws {
        await harness.answer(repo.load(), contentType: "application/json", text: #"{"stars": 1}"#)
        let starred = harness.service.resource("/user/starred/42")
        let star = starred.request(.put, showing: .merge(["stars": 2]), on: repo)
        #expect(shown["stars"] as? Int == 2)
        await harness.answer(star, status: 204)
        #expect(repo.currentState.pendingChanges == 1)  // settled: waits for the repo's data
        harness.scheduler.advance()  // the end of the turn
        let reload = try #require(repo.loadRequests.first)
        await harness.answer(reload, contentType: "application/json", text: #"{"stars": 2}"#)
        #expect(repo.currentState.pendingChanges == 0)
        #expect(shown["stars"] as? Int == 2)
    }

    @Test("M4 a load that left before the write succeeded keeps the change: its data predates it")
    func earlierLoadKeepsSettledChange() async {
        _ = await loadedRepo()
        let star = repo.request(.patch, json: ["starred": true], showing: .merge(["starred": true]))
        let earlier = repo.load()
        await harness.network.respond(status: 204)  // the PATCH, sent first
        _ = await star.responseInfo
        await harness.answer(earlier, contentType: "application/json", text: #"{"name": "repose", "stars": 1}"#)
        #expect(shown["starred"] as? Bool == true)
        #expect(repo.currentState.pendingChanges == 1)
        let later = repo.load()
        await harness.answer(later, contentType: "application/json", text: #"{"starred": true}"#)
        #expect(repo.currentState.pendingChanges == 0)
    }

    @Test("M4 a response configured to carry the resource replaces the change in one event, with no reload")
    func responseCarriesResource() async {
        harness.service.configure { $0.writeResponseIsResource = true }
        let observer = await loadedRepo()
        let rename = repo.request(.patch, json: ["name": "Repose"], showing: .merge(["name": "Repose"]))
        await harness.answer(
            rename, contentType: "application/json", text: #"{"name": "Repose", "stars": 5}"#)
        #expect(shown["stars"] as? Int == 5)
        #expect(repo.currentState.pendingChanges == 0)
        #expect(observer.events == ["observerAdded", "newData(optimistic)", "newData(network)"])
        harness.scheduler.advance()
        #expect(!repo.isLoading)
        #expect(harness.network.sent.count == 2)
    }

    @Test("M5 a load that completes while changes are pending replaces the data beneath and keeps them on top")
    func loadReappliesChanges() async {
        let observer = await loadedRepo()
        let star = repo.request(.patch, json: ["starred": true], showing: .merge(["starred": true]))
        let reload = repo.load()
        await harness.network.respond(status: 500)  // the PATCH stays pending: answer it last
        _ = await star.responseInfo
        #expect(shown["starred"] == nil)
        let star2 = repo.request(.patch, json: ["starred": true], showing: .merge(["starred": true]))
        await harness.answer(reload, contentType: "application/json", text: #"{"name": "renamed", "stars": 9}"#)
        #expect(shown["name"] as? String == "renamed")
        #expect(shown["starred"] as? Bool == true)
        #expect(repo.currentState.pendingChanges == 1)
        #expect(observer.events.last == "newData(network)")
        await harness.answer(star2, status: 500)
        #expect(shown["starred"] == nil && shown["stars"] as? Int == 9)
    }

    @Test("M1 a change over no data shows data of its own, and a removal shows none")
    func changeOverNothing() async {
        let create = repo.request(.put, json: ["name": "new"], showing: .replace(with: ["name": "new"]))
        #expect(shown["name"] as? String == "new")
        #expect(repo.latestData?.contentType == "application/json")
        await harness.answer(create, status: 500)
        #expect(repo.latestData == nil)
        _ = await loadedRepo()
        let delete = repo.request(.delete, showing: .remove)
        #expect(repo.latestData == nil)
        await harness.answer(delete, status: 500)
        #expect(shown["name"] as? String == "repose")
    }

    @Test("M1 a change may show on another resource than the request's, which stays in use meanwhile")
    func changeOnAnotherResource() async {
        _ = await loadedRepo()
        let star = harness.service.resource("/user/starred/42").request(
            .put, showing: .update([String: Any].self) { $0["starred"] = true }, on: repo)
        #expect(shown["starred"] as? Bool == true)
        #expect(repo.isRequesting)
        await harness.answer(star, status: 500)
        #expect(shown["starred"] == nil)
        #expect(!repo.isRequesting)
    }

    @Test("M1 a body that cannot be encoded fails at once and shows no change")
    func unencodableBody() async {
        let bad = repo.request(.patch, json: ["ratio": Double.nan], showing: .merge(["x": 1]))
        #expect(bad.state == .completed)
        #expect(repo.latestData == nil)
        #expect(harness.network.sent.isEmpty)
    }
}
