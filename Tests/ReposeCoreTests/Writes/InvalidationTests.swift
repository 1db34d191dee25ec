import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// Invalidation by URL structure after writes, and by hand (rules M6, M7), with the network and the end of the
/// turn scripted: the reloads wait for the service's scheduler.
@MainActor
@Suite("Invalidation after writes", .checksLifetimes)
struct InvalidationTests {
    let harness = Harness()
    var service: Service { harness.service }

    /// Loads each path with a small text and returns their resources.
    private func loaded(_ paths: [String]) async -> [Resource] {
        var resources: [Resource] = []
        for path in paths {
            let resource = service.resource(path)
            await harness.answer(resource.load(), text: path)
            resources.append(resource)
        }
        return resources
    }

    /// An owner that observes `resources` for as long as the harness lives.
    private func observe(_ resources: [Resource]) {
        for resource in resources { resource.addObserver(owner: harness) { _, _ in } }
    }

    /// Asks for the target and its parent collection to be invalidated after every successful write.
    private func invalidateWrites() {
        service.configure("/**", requestMethods: [.post, .put, .patch, .delete]) { $0.invalidation = .targetAndParent }
    }

    /// Answers every load of `resources` in flight with `text`, in the order they were sent, and waits for each.
    private func answerLoads(of resources: [Resource], text: String = "new") async {
        let loads = resources.flatMap(\.loadRequests)
        await harness.network.respond(toOldest: loads.count, text: text)
        for load in loads { _ = await load.responseInfo }
    }

    @Test("M6 T4 the reload of an observed target waits for its last write on the way, even one that fails")
    func reloadWaitsForTheLastWrite() async {
        invalidateWrites()
        let user = await loaded(["/users/42"])[0]
        observe([user])
        let first = user.request(.patch, json: ["n": 1], showing: .merge(["n": 1]))
        let second = user.request(.patch, json: ["n": 2], showing: .merge(["n": 2]))
        await harness.answer(first, status: 204)
        harness.scheduler.advance()
        #expect(!user.isLoading, "reloaded while the second write was on its way")
        await harness.answer(second, status: 500)
        harness.scheduler.advance()
        #expect(user.isLoading)  // the first write's reload, once nothing else is on its way
        await answerLoads(of: [user], text: "confirmed")
        #expect(user.text == "confirmed")
        #expect(user.currentState.pendingChanges == 0)
        #expect(harness.network.sent.filter { $0.httpMethod == "GET" }.count == 2)
    }

    @Test("M6 by default a successful write changes no resource: its observers hear nothing and nothing reloads")
    func nothingByDefault() async {
        let resources = await loaded(["/users/42", "/users"])
        let observers = resources.map { resource in
            let observer = RecordingObserver()
            resource.addObserver(observer)
            return observer
        }
        for method: RequestMethod in [.post, .put, .patch, .delete] {
            await harness.answer(resources[0].request(method, json: ["name": "Ada"]), status: 200)
        }
        harness.scheduler.advance()
        #expect(resources.allSatisfy { $0.isUpToDate && !$0.isLoading })
        #expect(observers.map(\.events) == [["observerAdded"], ["observerAdded"]])
        #expect(harness.network.sent.count == 6)  // two loads, four writes, no reload
        #expect(InvalidationScope() == .nothing)
    }

    @Test("M6 configured, a successful PATCH invalidates target and parent; observed ones reload at the turn's end")
    func targetAndParent() async {
        invalidateWrites()
        let resources = await loaded(["/users/42", "/users", "/users/7", "/teams"])
        let (user, users, other, teams) = (resources[0], resources[1], resources[2], resources[3])
        observe([user, users, other, teams])
        await harness.answer(user.request(.patch, json: ["name": "Ada"]), status: 204)
        #expect(!user.isUpToDate && !users.isUpToDate)
        #expect(other.isUpToDate && teams.isUpToDate)
        #expect(!user.isLoading && !users.isLoading)  // not before the end of the turn
        harness.scheduler.advance()
        #expect(user.isLoading && users.isLoading)
        #expect(!other.isLoading && !teams.isLoading)
        #expect(user.latestData != nil && users.latestData != nil)  // stale, not discarded
        await answerLoads(of: [user, users])
        #expect(users.text == "new")
    }

    @Test("M6 a request's own invalidation option overrides the configuration, both ways")
    func perRequestOption() async {
        let resources = await loaded(["/users/42", "/users", "/teams/1", "/teams"])
        let (user, users, team, teams) = (resources[0], resources[1], resources[2], resources[3])
        let scoped = RequestOptions(invalidation: .targetAndParent)
        await harness.answer(user.request(.patch, json: ["name": "Ada"], options: scoped), status: 204)
        #expect(!user.isUpToDate && !users.isUpToDate)

        invalidateWrites()
        await harness.answer(team.request(.delete, options: RequestOptions(invalidation: .nothing)), status: 204)
        #expect(team.isUpToDate && teams.isUpToDate)
    }

    @Test("M6 unobserved resources are not reloaded: they load on their next loadIfNeeded()")
    func unobservedWait() async {
        invalidateWrites()
        let resources = await loaded(["/users/42", "/users"])
        await harness.answer(resources[0].request(.delete), status: 204)
        harness.scheduler.advance()
        #expect(!resources[1].isLoading)
        #expect(harness.network.sent.count == 3)
        let load = resources[1].loadIfNeeded()
        #expect(load != nil)
        if let load { await harness.answer(load, text: "again") }
    }

    @Test("M6 a failed write and a GET invalidate nothing", arguments: [RequestMethod.get, .head, .options])
    func failuresAndReadsInvalidateNothing(method: RequestMethod) async {
        invalidateWrites()
        let resources = await loaded(["/users/42", "/users"])
        await harness.answer(resources[0].request(.patch), status: 500)
        await harness.answer(resources[0].request(method), text: "read")
        #expect(resources.allSatisfy { $0.isUpToDate })
    }

    @Test("M6 several writes that land before the turn ends reload each resource once")
    func writesCoalesce() async {
        invalidateWrites()
        let resources = await loaded(["/users/1", "/users/2", "/users/3", "/users"])
        observe(resources)
        let writes = resources.prefix(3).map { $0.request(.put, json: ["x": 1]) }
        for write in writes { await harness.answer(write, status: 204) }
        harness.scheduler.advance()
        let loads = harness.network.sent.suffix(4).filter { $0.httpMethod == "GET" }
        #expect(loads.count == 4)
        #expect(Set(loads.compactMap { URL(string: $0.url)?.path }).count == 4)  // /users once, each user once
        await answerLoads(of: resources)
        harness.scheduler.advance()
        let stillLoading = resources.filter { $0.isLoading }
        #expect(stillLoading.isEmpty)
    }

    @Test("M6 a reload the app starts in its own success hook counts: no second load")
    func appReloadCounts() async {
        invalidateWrites()
        let profile = await loaded(["/profile"])[0]
        observe([profile])
        let patch = profile.request(.patch, json: ["name": "Ada"]).onSuccess { _ in profile.load() }
        await harness.answer(patch, status: 204)
        harness.scheduler.advance()
        #expect(profile.loadRequests.count == 1)
        await answerLoads(of: [profile])
    }

    @Test("M6 configuration by URL pattern: the target alone for avatars, the feed too for posts")
    func configuredScope() async {
        service.configure("/users/*/avatar") { $0.invalidation.target = true }
        service.configure("/posts/*", requestMethods: [.post]) {
            $0.invalidation = .init(target: true, parent: true, others: ["/feed", "/users/*"])
        }
        let resources = await loaded(["/users/42/avatar", "/users/42", "/posts/1", "/posts", "/feed", "/users/7"])
        await harness.answer(resources[0].request(.put, data: Data([1]), contentType: "image/png"), status: 204)
        #expect(!resources[0].isUpToDate)
        #expect(resources[1].isUpToDate)
        await harness.answer(resources[2].request(.post, json: ["t": 1]), status: 201)
        #expect(!resources[2].isUpToDate && !resources[3].isUpToDate && !resources[4].isUpToDate)
        #expect(!resources[1].isUpToDate && !resources[5].isUpToDate)
        await harness.answer(resources[4].load(), text: "feed")
        await harness.answer(resources[2].request(.patch, json: ["t": 2]), status: 204)  // PATCH: nothing, the default
        #expect(resources[4].isUpToDate)
    }

    @Test("M6 the parent of a URL drops its last segment and query, and a root has none")
    func parentKeys() throws {
        let url = try #require(URL(string: "https://a.b/v1/users/42?x=1#f"))
        #expect(URLBuilding.parentKeys(of: url) == ["https://a.b/v1/users", "https://a.b/v1/users/"])
        let slash = try #require(URL(string: "https://a.b/v1/users/"))
        #expect(URLBuilding.parentKeys(of: slash) == ["https://a.b/v1", "https://a.b/v1/"])
        let top = try #require(URL(string: "https://a.b/users"))
        #expect(URLBuilding.parentKeys(of: top) == ["https://a.b/"])
        let root = try #require(URL(string: "https://a.b/"))
        #expect(URLBuilding.parentKeys(of: root).isEmpty)
    }

    @Test("M7 invalidateResources(matching:) marks matches stale, keeps their data, reloads the observed ones")
    func byHand() async {
        let resources = await loaded(["/users/1", "/users/2", "/teams/1"])
        observe([resources[0]])
        service.invalidateResources(matching: "/users/*")
        service.invalidateResources(matching: "/users/*")
        service.invalidateResources { $0.url.path.hasSuffix("/users/1") }
        #expect(!resources[0].isUpToDate && !resources[1].isUpToDate && resources[2].isUpToDate)
        #expect(resources[1].text == "/users/2")
        harness.scheduler.advance()
        #expect(resources[0].loadRequests.count == 1)
        #expect(!resources[1].isLoading && !resources[2].isLoading)
        await answerLoads(of: [resources[0]])
    }
}
