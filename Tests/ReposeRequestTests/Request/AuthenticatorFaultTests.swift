import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// An authenticator under faults: a refresh that never returns, waiters that all give up, a refresh that fails while
/// requests keep coming, and a crowd of 401s. The manual network answers in the order requests were sent; the
/// harness's virtual clock drives the refresh's time limit.
@MainActor
@Suite("T6 T7 an authenticator that cannot hang or storm", .checksLifetimes, .hangLimit)
struct AuthenticatorFaultTests {
    final class Counter {
        var value = 0
    }

    let harness = Harness()
    let refreshes = Counter()
    let auth: Authenticator
    var network: ManualNetwork { harness.network }

    init() {
        let refreshes = refreshes
        auth = Authenticator(credential: "old") { service in
            refreshes.value += 1
            return try await service.resource("/auth/token").request(.post, text: "renew").content(as: String.self)
        }
        harness.service.configure { [auth] in $0.authenticator = auth }
    }

    func resource(_ name: String) -> Resource { harness.service.resource("/items/\(name)") }
    var tokenRequests: Int { network.sent.filter { URL(string: $0.url)?.path == "/v1/auth/token" }.count }
    var sentCredentials: [String?] { network.sent.map { $0.header("Authorization") } }

    /// Answers the oldest pending request, then waits until `count` requests have been sent in all.
    func respond(_ status: Int, text: String = "", thenSent count: Int) async {
        await network.respond(status: status, contentType: "text/plain", text: text)
        await waitUntil { network.sent.count == count }
    }

    @Test("T6 a refresh that never returns fails its waiters with a timeout after the limit; a later 401 refreshes")
    func refreshTimesOut() async throws {
        let a = resource("a").load()
        await respond(401, thenSent: 2)  // the refresh sends its request, which is never answered
        let b = resource("b").load()  // started during the refresh: waits for it
        harness.scheduler.advance(by: .seconds(29))
        #expect(auth.isRefreshing)
        #expect(a.state == .inProgress && b.state == .inProgress)
        harness.scheduler.advance(by: .seconds(1))
        for request in [a, b] {
            let error = try #require(await request.responseInfo.response.error)
            #expect(error.cause is RequestError.Cause.CredentialRefreshTimedOut)
            #expect(error.userMessage.contains("too long"))
            #expect(!error.isCancellation)
        }
        #expect(!auth.isRefreshing)
        #expect(auth.credential == "old")
        await waitUntil { network.pendingCount == 0 }  // the refresh's own request was cancelled with it

        let c = resource("c").load()
        #expect(sentCredentials.last == "Bearer old")  // a timeout is no verdict on the credential
        await respond(401, thenSent: 4)
        #expect(refreshes.value == 2)
        await respond(200, text: "new", thenSent: 5)
        await harness.answer(c, text: "c")
        #expect(c.completedResponse?.response.entity?.text == "c")
    }

    @Test("T6 the time limit is configurable")
    func configurableLimit() async throws {
        auth.refreshTimeLimit = 5
        let a = resource("a").load()
        await respond(401, thenSent: 2)
        harness.scheduler.advance(by: .seconds(5))
        let error = await a.responseInfo.response.error
        #expect(error?.cause is RequestError.Cause.CredentialRefreshTimedOut)
    }

    @Test("T6 an infinite time limit means none, without a crash")
    func infiniteLimit() async throws {
        auth.refreshTimeLimit = .infinity
        let a = resource("a").load()
        await respond(401, thenSent: 2)
        harness.scheduler.advance(by: .seconds(86_400))
        #expect(auth.isRefreshing)
        a.cancel()  // the last waiter: the refresh goes with it
        #expect(!auth.isRefreshing)
    }

    @Test("T6 cancelling every waiting request cancels the refresh; cancelling some leaves it running")
    func cancellingEveryWaiter() async throws {
        let (a, b) = (resource("a").load(), resource("b").load())
        await respond(401, thenSent: 3)  // a turned away: the refresh starts
        await respond(401, thenSent: 3)  // b joins
        await waitUntil { auth.refreshWaiters == 2 }
        let c = resource("c").load()  // waits for the refresh
        #expect(auth.refreshWaiters == 3)
        a.cancel()
        c.cancel()
        #expect(auth.isRefreshing)
        b.cancel()
        #expect(!auth.isRefreshing)
        await waitUntil { network.pendingCount == 0 }  // the token request went with it
        #expect(network.cancelledCount >= 1)

        let d = resource("d").load()
        await respond(401, thenSent: 5)  // a new refresh may start
        #expect(refreshes.value == 2)
        await respond(200, text: "new", thenSent: 6)
        await harness.answer(d, text: "d")
        #expect(d.completedResponse?.response.entity?.text == "d")
    }

    @Test("T7 after a refresh fails, 50 requests over a second fail at once with its error, none sent, no new refresh")
    func failedRefreshDoesNotStorm() async throws {
        let a = resource("a").load()
        await respond(401, thenSent: 2)
        await network.respond(status: 400, contentType: "text/plain", text: "refresh token revoked")
        #expect(await a.responseInfo.response.error?.httpStatusCode == 400)
        #expect(auth.refreshFailure?.httpStatusCode == 400)

        for index in 0..<50 {
            harness.scheduler.advance(by: .milliseconds(20))
            let request = resource("later\(index)").load()
            let error = try #require(
                request.completedResponse?.response.error, "request \(index) was not failed at once")
            #expect(error.httpStatusCode == 400)
            #expect(error.text == "refresh token revoked")
        }
        #expect(network.sent.count == 2)
        #expect(refreshes.value == 1)

        auth.credential = "signed in again"  // the app sets a new credential: requests go out again
        #expect(auth.refreshFailure == nil)
        let b = resource("b").load()
        #expect(sentCredentials.last == "Bearer signed in again")
        await harness.answer(b, text: "b")
        #expect(b.completedResponse?.response.entity?.text == "b")
    }

    @Test("T7 after a refresh fails, asking for a refresh sends requests again, and their 401 refreshes")
    func retryAfterFailure() async throws {
        _ = resource("a").load()
        await respond(401, thenSent: 2)
        await network.respond(status: 400)
        await waitUntil { auth.refreshFailure != nil }
        auth.retryRefresh()
        #expect(auth.refreshFailure == nil)
        let b = resource("b").load()
        #expect(sentCredentials.last == "Bearer old")
        await respond(401, thenSent: 4)
        #expect(refreshes.value == 2)
        await respond(200, text: "new", thenSent: 5)
        await harness.answer(b, text: "b")
        #expect(b.completedResponse?.response.entity?.text == "b")
    }

    @Test("T7 a 401 that arrives after the refresh failed fails with its error and starts no refresh")
    func lateRejection() async throws {
        let (a, b) = (resource("a").load(), resource("b").load())
        await respond(401, thenSent: 3)  // a: the refresh starts; b is still out with the old credential
        await network.respond(toPendingAt: 1, status: 400)  // the refresh fails before b's answer
        #expect(await a.responseInfo.response.error?.httpStatusCode == 400)
        await network.respond(status: 401)  // b, sent with the rejected credential
        #expect(await b.responseInfo.response.error?.httpStatusCode == 400)
        #expect(refreshes.value == 1)
        #expect(network.sent.count == 3)
    }

    enum Outcome: String, CaseIterable, Sendable {
        case succeeds, fails, timesOut
    }

    @Test("T7 200 concurrent 401s start exactly one refresh, whatever its outcome", arguments: Outcome.allCases)
    func crowdOf401s(_ outcome: Outcome) async throws {
        let loads = (0..<200).map { resource("\($0)").load() }
        await respond(401, thenSent: 201)  // the first: the refresh's request goes out last
        await network.respond(toOldest: 199, status: 401)
        await waitUntil { auth.refreshWaiters == 200 }  // every 401 has reached the authenticator
        #expect(network.pendingCount == 1)
        #expect(network.oldestPending?.url == "https://zingle.frotz/v1/auth/token")
        switch outcome {
        case .succeeds:
            await network.respond(status: 200, contentType: "text/plain", text: "new")
            await waitUntil { network.sent.count == 401 }
            #expect(sentCredentials.suffix(200).allSatisfy { $0 == "Bearer new" })
            await network.respond(toOldest: 200, text: "ok")
        case .fails:
            await network.respond(status: 400)
        case .timesOut:
            harness.scheduler.advance(by: .seconds(30))
        }
        for load in loads {
            _ = await load.responseInfo
        }
        #expect(refreshes.value == 1)
        #expect(tokenRequests == 1)
        #expect(loads.allSatisfy { ($0.completedResponse?.response.error == nil) == (outcome == .succeeds) })
    }
}
