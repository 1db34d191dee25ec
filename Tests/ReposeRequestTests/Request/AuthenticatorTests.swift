import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// Authentication on the manual network: the test answers every request, in the order they were sent.
@MainActor
@Suite("R9 authentication that refreshes once", .checksLifetimes, .hangLimit)
struct AuthenticatorTests {
    /// How many times the app's refresh closure ran.
    final class Counter {
        var value = 0
    }

    let harness = Harness()
    let refreshes = Counter()
    let auth: Authenticator
    var network: ManualNetwork { harness.network }

    init() {
        let refreshes = refreshes
        // The token endpoint lies under the same configuration: the refresh's own request must go without the
        // credential and without waiting for itself.
        auth = Authenticator(credential: "old") { service in
            refreshes.value += 1
            return try await service.resource("/auth/token").request(.post, text: "renew").content(as: String.self)
        }
        harness.service.configure { [auth] in $0.authenticator = auth }
    }

    func resource(_ name: String) -> Resource { harness.service.resource("/items/\(name)") }

    var sentCredentials: [String?] { network.sent.map { $0.header("Authorization") } }
    var sentPaths: [String?] { network.sent.map { URL(string: $0.url)?.path } }

    /// Answers the oldest pending request, then waits until `count` requests have been sent in all.
    func respond(_ status: Int, text: String = "", thenSent count: Int) async {
        await network.respond(status: status, contentType: "text/plain", text: text)
        await waitUntil { network.sent.count == count }
    }

    @Test("R9 a 401 renews the credential once and sends the request again with it; observers see one load")
    func refreshesAndRepeats() async throws {
        let items = resource("a")
        let observer = RecordingObserver()
        items.addObserver(observer)
        let load = items.load()
        await respond(401, thenSent: 2)
        #expect(auth.isRefreshing)
        await respond(200, text: "new", thenSent: 3)
        await harness.answer(load, text: "the items")

        #expect(sentPaths == ["/v1/items/a", "/v1/auth/token", "/v1/items/a"])
        #expect(sentCredentials == ["Bearer old", nil, "Bearer new"])
        #expect(auth.credential == "new")
        #expect(!auth.isRefreshing)
        #expect(refreshes.value == 1)
        #expect(items.text == "the items")
        #expect(observer.events == ["observerAdded", "requested", "newData(network)"])
    }

    @Test("R9 requests turned away during a refresh join it, and requests started during it wait for it")
    func oneRefreshForAll() async throws {
        let (a, b, c) = (resource("a").load(), resource("b").load(), resource("c").load())
        await respond(401, thenSent: 4)  // a: the refresh starts
        let d = resource("d").load()  // started during the refresh: not sent yet
        #expect(network.sent.count == 4)
        await network.respond(status: 401)  // b joins
        await network.respond(status: 401)  // c joins
        await respond(200, text: "new", thenSent: 8)  // the refresh: a, b, c and d go out with the new credential
        #expect(refreshes.value == 1)
        #expect(sentPaths.filter { $0 == "/v1/auth/token" }.count == 1)
        #expect(sentCredentials.suffix(4) == Array(repeating: "Bearer new", count: 4))
        #expect(Set(sentPaths.suffix(4)) == ["/v1/items/a", "/v1/items/b", "/v1/items/c", "/v1/items/d"])
        for _ in 0..<4 { await network.respond(status: 200, contentType: "text/plain", text: "ok") }
        for request in [a, b, c, d] {
            let info = await request.responseInfo
            #expect(info.response.entity?.text == "ok")
        }
    }

    @Test("R9 a failed refresh fails every waiting request with its error, once each")
    func failedRefresh() async throws {
        let observers = [RecordingObserver(), RecordingObserver()]
        let a = resource("a").addObserver(observers[0]).load()
        let b = resource("b").addObserver(observers[1]).load()
        await respond(401, thenSent: 3)
        await network.respond(status: 401)
        await network.respond(status: 400, contentType: "text/plain", text: "refresh token revoked")
        for request in [a, b] {
            let error = await request.responseInfo.response.error
            #expect(error?.httpStatusCode == 400)
            #expect(error?.text == "refresh token revoked")
        }
        #expect(observers.map(\.events) == Array(repeating: ["observerAdded", "requested", "error"], count: 2))
        #expect(auth.credential == "old")
        #expect(!auth.isRefreshing)
        #expect(network.sent.count == 3)
    }

    @Test("R9 a 401 to a request sent with an older credential is sent again with the current one, no refresh")
    func outdatedCredential() async throws {
        let load = resource("a").load()
        auth.credential = "signed in again"
        await respond(401, thenSent: 2)
        await harness.answer(load, text: "fine")
        #expect(sentCredentials == ["Bearer old", "Bearer signed in again"])
        #expect(refreshes.value == 0)
        #expect(load.completedResponse?.response.entity?.text == "fine")
    }

    @Test("R9 a request is sent again once only: a 401 with the new credential is its outcome")
    func repeatsOnce() async throws {
        let load = resource("a").load()
        await respond(401, thenSent: 2)
        await respond(200, text: "new", thenSent: 3)
        await harness.answer(load, status: 401)
        #expect(load.completedResponse?.response.error?.httpStatusCode == 401)
        #expect(refreshes.value == 1)
        #expect(network.sent.count == 3)
    }

    @Test("R9 cancelling one waiting request leaves the refresh to the others")
    func cancelOneWaiter() async throws {
        let (a, b) = (resource("a").load(), resource("b").load())
        await respond(401, thenSent: 3)
        await respond(401, thenSent: 3)
        await waitUntil { auth.refreshWaiters == 2 }  // b has joined: cancelling a leaves it one waiter
        a.cancel()
        #expect(a.completedResponse?.response.isCancellation == true)
        await respond(200, text: "new", thenSent: 4)
        await harness.answer(b, text: "b")
        #expect(b.completedResponse?.response.entity?.text == "b")
        #expect(sentPaths.last == "/v1/items/b")
    }

    @Test("R9 other failures pass through, and without a credential no header is sent")
    func otherFailures() async throws {
        auth.credential = nil
        let load = resource("a").load()
        await harness.answer(load, status: 403)
        #expect(load.completedResponse?.response.error?.httpStatusCode == 403)
        #expect(sentCredentials == [nil])
    }

    @Test("R9 without an authenticator, requests are neither touched nor wrapped")
    func offCostsNothing() async {
        let other = Service(baseURL: "https://zingle.frotz/v1", options: .init(networking: network))
        LifetimeCheck.track(other)
        let request = other.resource("/a").request(.get)
        #expect(request.delegate is NetworkRequest)
        #expect(network.sent.last?.header("Authorization") == nil)
        await harness.answer(request)
    }
}
