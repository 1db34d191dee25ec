import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// Optimistic changes and invalidation over real HTTP: `URLSessionProvider` against the loopback server's JSON store
/// (rules M1–M7).
@MainActor
@Suite("Writes over real HTTP", .checksLifetimes)
final class WriteIntegrationTests {
    let fixture: IntegrationFixture
    var service: Service { fixture.service }

    init() async throws {
        fixture = try await IntegrationFixture()
    }

    /// Puts `value` at `path` in the server's store, and loads it into its resource.
    private func seed(_ path: String, _ value: [String: Any]) async throws -> Resource {
        let resource = service.resource(path)
        try #require(await fixture.completion(of: resource.request(.put, json: value)) != nil)
        try #require(await fixture.completion(of: resource.load()) != nil)
        return resource
    }

    /// Waits until `resource` is not loading any more (a reload that a write started at the end of its turn);
    /// records an issue if it still requests after ``Patience/wait``. Bounded by time, not by a count of turns: the
    /// request it waits for is answered on another thread, which a loaded machine can hold back for many turns.
    private func settled(_ resource: Resource, sourceLocation: SourceLocation = #_sourceLocation) async {
        let deadline = ContinuousClock.now + Patience.wait
        while true {
            await Task.yield()
            if let load = resource.loadRequests.first {
                _ = await fixture.completion(of: load, sourceLocation: sourceLocation)
            } else if !resource.isRequesting {
                return
            } else if ContinuousClock.now > deadline {
                Issue.record("\(resource.url) still requesting after \(Patience.wait)", sourceLocation: sourceLocation)
                return
            }
        }
    }

    private func log() async throws -> [[String: Any]] {
        let info = try #require(await fixture.completion(of: service.resource("/store-log").load()))
        return try #require(info.response.entity?.content as? [[String: Any]])
    }

    @Test("M1 M4 a change shows at once, then the server's data replaces it in one event after the reload")
    func starShowsThenSettles() async throws {
        let repo = try await seed("/store/repos/42", ["name": "repose", "stars": 1])
        let observer = RecordingObserver()
        repo.addObserver(observer)
        let star = repo.request(.patch, json: ["starred": true], showing: .merge(["starred": true]))
        #expect(repo.jsonDict["starred"] as? Bool == true)
        #expect(repo.currentState.pendingChanges == 1)
        try #require(await fixture.completion(of: star)?.response.entity != nil)
        #expect(repo.jsonDict["starred"] as? Bool == true)
        await settled(repo)
        #expect(repo.jsonDict["starred"] as? Bool == true)
        #expect(repo.record.serverData?.jsonDict["starred"] as? Bool == true)
        #expect(repo.currentState.pendingChanges == 0)
        #expect(observer.events == ["observerAdded", "newData(optimistic)", "requested", "newData(network)"])
    }

    @Test("M2 M3 two writes in flight, the first failing: only its change goes, the second's stays")
    func firstFailsSecondStays() async throws {
        let repo = try await seed("/store/repos/7", ["name": "repose", "stars": 1])
        let failing = service.resource("/store/repos/7").withParam("status", "500")
        let first = failing.request(
            .patch, json: ["label": "x"], showing: .merge(["label": "first", "stars": 2]), on: repo)
        let second = repo.request(.patch, json: ["stars": 3], showing: .merge(["stars": 3]))
        #expect(repo.jsonDict["stars"] as? Int == 3 && repo.jsonDict["label"] as? String == "first")
        let firstOutcome = await fixture.completion(of: first)
        #expect(firstOutcome?.response.error?.httpStatusCode == 500)
        if second.state != .completed {
            #expect(repo.jsonDict["stars"] as? Int == 3)
            #expect(repo.jsonDict["label"] == nil)
        }
        try #require(await fixture.completion(of: second)?.response.entity != nil)
        await settled(repo)
        #expect(repo.jsonDict["stars"] as? Int == 3)
        #expect(repo.jsonDict["label"] == nil)
        #expect(repo.currentState.pendingChanges == 0)
    }

    @Test("M4 with writeResponseIsResource the response replaces the change, and no reload is sent")
    func responseCarriesResource() async throws {
        service.configure("/store/**") { $0.writeResponseIsResource = true }
        let profile = try await seed("/store/users/1", ["name": "ada"])
        profile.addObserver(owner: self) { _, _ in }
        let rename = profile.request(.patch, json: ["name": "Ada"], showing: .merge(["name": "Ada"]))
        try #require(await fixture.completion(of: rename) != nil)
        #expect(profile.jsonDict["name"] as? String == "Ada")
        #expect(profile.currentState.pendingChanges == 0)
        await settled(profile)
        let gets = try await log().filter {
            $0["method"] as? String == "GET" && $0["path"] as? String == "/store/users/1"
        }
        #expect(gets.count == 1)  // the seed's load only
        profile.removeObservers(ownedBy: self)
    }

    @Test("M5 a load that completes while a write is held keeps its change on top of the new data")
    func loadDuringWrite() async throws {
        let note = try await seed("/store/notes/1", ["text": "a", "pinned": false])
        let held = service.resource("/store/notes/1").withParam("hold", "m5")
        let pin = held.request(.patch, json: ["pinned": true], showing: .merge(["pinned": true]), on: note)
        #expect(await fixture.server.waitForMark("held m5"))
        try #require(
            await fixture.completion(of: service.resource("/store/notes/1").request(.patch, json: ["text": "b"])) != nil
        )
        try #require(await fixture.completion(of: note.load()) != nil)
        #expect(note.jsonDict["text"] as? String == "b")
        #expect(note.jsonDict["pinned"] as? Bool == true)
        #expect(note.record.serverData?.jsonDict["pinned"] as? Bool == false)
        _ = await fixture.completion(of: service.resource("/store-release/m5").load())
        try #require(await fixture.completion(of: pin) != nil)
        await settled(note)
        _ = await fixture.completion(of: note.load())
        #expect(note.jsonDict["pinned"] as? Bool == true)
        #expect(note.currentState.pendingChanges == 0)
    }

    @Test("A31 after a local override, a load gets the server's data, not a 304 that keeps the edit")
    func overrideThenLoad() async throws {
        let note = try await seed("/store/notes/2", ["text": "server"])
        #expect(note.latestData?.etag != nil)
        note.overrideLocalContent(with: ["text": "local"])
        let info = try #require(await fixture.completion(of: note.load()))
        #expect(info.isNew)
        #expect(note.jsonDict["text"] as? String == "server")
    }
}

extension WriteIntegrationTests {
    /// How many GETs of `path` the server's store has seen.
    fileprivate func gets(of path: String) async throws -> Int {
        try await log().filter { $0["method"] as? String == "GET" && $0["path"] as? String == path }.count
    }

    @Test("M6 configured, a successful write reloads the observed target and its parent collection, once each")
    func writeReloadsTargetAndParent() async throws {
        service.configure("/store/**", requestMethods: [.patch]) { $0.invalidation = .targetAndParent }
        let user = try await seed("/store/users/42", ["name": "ada"])
        let users = service.resource("/store/users")
        try #require(await fixture.completion(of: users.load()) != nil)
        let unobserved = try await seed("/store/users/9", ["name": "bob"])
        user.addObserver(owner: self) { _, _ in }
        users.addObserver(owner: self) { _, _ in }
        try #require(await fixture.completion(of: user.request(.patch, json: ["name": "Ada"])) != nil)
        await settled(user)
        await settled(users)
        #expect(try await gets(of: "/store/users/42") == 2)
        #expect(try await gets(of: "/store/users") == 2)
        #expect(try await gets(of: "/store/users/9") == 1)
        let names = users.jsonArray.compactMap { ($0 as? [String: Any])?["name"] as? String }
        #expect(names.contains("Ada"))
        #expect(unobserved.jsonDict["name"] as? String == "bob")
        user.removeObservers(ownedBy: self)
        users.removeObservers(ownedBy: self)
    }

    @Test("M7 invalidateResources called three times in one turn reloads each observed match once")
    func invalidateByHand() async throws {
        let first = try await seed("/store/tags/1", ["t": 1])
        let second = try await seed("/store/tags/2", ["t": 2])
        first.addObserver(owner: self) { _, _ in }
        for _ in 0..<3 { service.invalidateResources(matching: "/store/tags/*") }
        #expect(!second.isUpToDate)
        await settled(first)
        #expect(try await gets(of: "/store/tags/1") == 2)
        #expect(try await gets(of: "/store/tags/2") == 1)
        #expect(second.jsonDict["t"] as? Int == 2)
        first.removeObservers(ownedBy: self)
    }
}
