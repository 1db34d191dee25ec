// The Swift blocks of Docs/Testing.md, verbatim: GuideSnippetTests checks that every block appears here. The page's
// suite is this one, and its examples are its tests: they run, so the page cannot show a test that fails.
import Foundation
import Repose
import ReposeTesting
import Testing

@MainActor
struct UserTests {
    let network = StubNetworkingProvider()
    let scheduler = TestScheduler(now: .seconds(1_000))  // virtual time, in seconds since 1970
    let service: Service

    init() {
        service = Service(
            baseURL: "https://api.example.com/v1", options: .init(networking: network, scheduler: scheduler))
    }
}

extension UserTests {
    @MainActor
    @Test func loadsTheUser() async {
        network.stub(.get, "https://api.example.com/v1/users/1", json: ["name": "Ada"])
        let user = service.resource("/users/1")

        let response = await user.load().response

        #expect(response.entity?.contentType == "application/json")
        #expect(user.latestError == nil)
        #expect(network.requests.map(\.url) == ["https://api.example.com/v1/users/1"])
    }

    @Test("an HTTP error status and a transport failure")
    func errors() async {
        network.stub(.get, "https://api.example.com/v1/users/404", status: 404, text: "no such user")
        network.stub(.get, "https://api.example.com/v1/offline", error: URLError(.notConnectedToInternet))

        let missing = service.resource("/users/404")
        _ = await missing.load().response
        #expect(missing.latestError?.httpStatusCode == 404)
        #expect(missing.latestError?.userMessage == "Not found")

        let offline = service.resource("/offline")
        _ = await offline.load().response
        #expect((offline.latestError?.cause as? URLError)?.code == .notConnectedToInternet)
    }

    @Test("successive responses, the last one repeating")
    func successiveResponses() async {
        network.stub(
            .get, "https://api.example.com/v1/flaky",
            responses: [.error(URLError(.timedOut)), .status(503), .json(["ok": true])])

        let flaky = service.resource("/flaky")
        _ = await flaky.load().response
        #expect((flaky.latestError?.cause as? URLError)?.code == .timedOut)
        _ = await flaky.load().response
        #expect(flaky.latestError?.httpStatusCode == 503)
        _ = await flaky.load().response
        #expect(flaky.latestError == nil)
        _ = await flaky.load().response
        #expect(flaky.jsonDict["ok"] as? Bool == true)
    }

    @Test("matching on headers and body, and checking what was sent")
    func matchingAndRequestLog() async throws {
        service.configure { $0.headers["Authorization"] = "Bearer abc" }
        network.stub(StubMatcher(nil, where: { _ in true }), .status(404))
        network.stub(
            StubMatcher(.post, "https://api.example.com/v1/users")
                .header("Authorization", "Bearer abc")
                .body(json: ["name": "Grace"]),
            .json(["id": 7], status: 201))

        let body = Data(#"{"name":"Grace"}"#.utf8)
        _ = await service.resource("/users").request(.post, data: body, contentType: "application/json").response

        let sent = try #require(network.requests.last)
        #expect(sent.method == .post)
        #expect(sent.header("content-type") == "application/json")
        #expect(sent.jsonDict["name"] as? String == "Grace")

        let created: [String: Any] = try await service.resource("/users").request(.post, json: ["name": "Grace"])
            .content()
        #expect(created["id"] as? Int == 7)
    }

    @MainActor
    final class ProfileViewModel {
        let headline: State<String>

        init(user: Resource) {
            headline = user.state.map { state in
                if let error = state.latestError { return "Could not load: \(error.userMessage)" }
                if state.isLoading { return "Loading…" }
                return state.jsonDict["name"] as? String ?? ""
            }
        }
    }

    @MainActor
    @Test func headlineFollowsTheLoad() async {
        let route = network.stub(.get, "https://api.example.com/v1/users/1", status: 500, text: "oops").held()
        let user = service.resource("/users/1")
        let model = ProfileViewModel(user: user)
        var headlines: [String] = []
        let subscription = model.headline.observe { headlines.append($0) }

        let request = user.load()
        await route.requested()
        #expect(model.headline.value == "Loading…")
        route.release()
        _ = await request.response

        #expect(headlines == ["", "Loading…", "Could not load: Internal server error"])
        subscription.cancel()
    }

    @MainActor
    @Test func answersEachLoadInTurn() async {
        let users = network.hold(.get, "https://api.example.com/v1/users/1")
        let user = service.resource("/users/1")

        let first = user.load()
        await users.requested()
        await users.reportProgress(TransferProgress(bytesReceived: 512, bytesExpectedToReceive: 1_024))
        #expect(user.isLoading)
        await users.respond(.json(["name": "Ada"]))
        _ = await first.response
        #expect(user.jsonDict["name"] as? String == "Ada")

        let second = user.load()
        await users.requested(count: 2)
        await users.respond(.error(URLError(.networkConnectionLost)))
        _ = await second.response
        #expect((user.latestError?.cause as? URLError)?.code == .networkConnectionLost)
        #expect(user.jsonDict["name"] as? String == "Ada")  // the data stays
    }

    @Test("freshness on the scheduler's virtual time")
    func freshnessOnTheClock() async {
        network.stub(.get, "https://api.example.com/v1/users/1", json: ["name": "Ada"])
        let user = service.resource("/users/1")
        _ = await user.load().response

        scheduler.advance(by: .seconds(29))
        #expect(user.loadIfNeeded() == nil)  // fresh: 30 s by default
        scheduler.advance(by: .seconds(2))
        #expect(user.loadIfNeeded() != nil)  // stale: loads

        _ = await user.loadRequests.first?.response
        #expect(network.requests.count == 2)
    }

    @Test("a scheduler started at a date stamps data with that date, read back as a Date")
    func clockAtADate() async {
        let clock = TestScheduler(date: Date(timeIntervalSince1970: 1_800_000_000))
        let api = Service(baseURL: "https://api.example.com/v1", options: .init(networking: network, scheduler: clock))
        network.stub(.get, "https://api.example.com/v1/users/1", json: ["name": "Ada"])
        clock.advance(by: .seconds(90))
        _ = await api.resource("/users/1").load().response
        #expect(api.resource("/users/1").latestData?.timestamp == clock.date.timeIntervalSince1970)
        #expect(clock.date == Date(timeIntervalSince1970: 1_800_000_090))
    }

    @Test("a load nobody watches any more is cancelled after the delay, in virtual time")
    func autoloadingInVirtualTime() async {
        let route = network.stub(.get, "https://api.example.com/v1/users/1", json: ["name": "Ada"]).held()
        let user = service.resource("/users/1")

        let subscription = user.autoloadingState(cancelDelay: 0.5).observe { _ in }  // a screen shows the user
        await route.requested()
        #expect(user.isLoading)

        subscription.cancel()  // the screen went away
        scheduler.advance(by: .milliseconds(499))
        #expect(user.isLoading)  // still within the delay
        scheduler.advance(by: .milliseconds(1))
        #expect(!user.isLoading)  // cancelled
        #expect(route.requests.first?.wasCancelled == true)
    }

    @Test("[intended failure] a request no stub matches fails the test, and the code under test sees a StubError")
    func unmatchedRequest() async {
        let unknown = service.resource("/not-stubbed")
        await withKnownIssue {
            _ = await unknown.load().response
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("no stub matches GET") }
        }
        #expect((unknown.latestError?.cause as? StubError)?.reason == .unmatchedRequest)
    }
}
