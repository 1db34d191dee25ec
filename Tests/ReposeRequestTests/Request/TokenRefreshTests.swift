import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// The custom-renewal recipe from `Docs/Freshness.md`: a decorator that, on a 401, renews the token and repeats the
/// request.
@MainActor
@Suite("Token refresh with a decorator and a chain", .checksLifetimes)
struct TokenRefreshTests {
    @MainActor
    final class Session {
        let service: Service
        var token = "old"
        private var refreshing: Request?

        init(service: Service) {
            self.service = service
            service.configure("/api/**") { [unowned self] configuration in
                configuration.headers["Authorization"] = "Bearer \(token)"
                configuration.decorateRequests { [unowned self] _, request in
                    renewingTokenOnAuthFailure(request)
                }
            }
        }

        /// One renewal at a time, shared by every request that needs it.
        func refreshToken() -> Request {
            if let refreshing { return refreshing }
            let refresh = service.resource("/auth/token").request(.post, text: "renew")
                .onSuccess { [unowned self] entity in
                    token = (entity.content as? Data).map { String(decoding: $0, as: UTF8.self) } ?? ""
                    service.invalidateConfiguration()
                }
                .onCompletion { [unowned self] _ in refreshing = nil }
            refreshing = refresh
            return refresh
        }

        func renewingTokenOnAuthFailure(_ request: Request) -> Request {
            request.chained { [unowned self] info in
                guard info.response.error?.httpStatusCode == 401 else { return .useThisResponse }
                return .passTo(
                    refreshToken().chained { refresh in
                        refresh.response.error == nil ? .passTo(request.repeated()) : .useResponse(info)
                    })
            }
        }
    }

    let harness = Harness()
    let session: Session
    var items: Resource { harness.service.resource("/api/items") }
    var network: ManualNetwork { harness.network }

    init() {
        session = Session(service: harness.service)
    }

    @Test("a 401 renews the token and repeats the request with the new header; observers see one clean load")
    func renewsAndRepeats() async {
        let observer = RecordingObserver()
        items.addObserver(observer)
        let load = items.load()
        await network.respond(status: 401)
        await yieldUntil { network.sent.count == 2 }
        await network.respond(status: 200, contentType: "application/octet-stream", text: "new")
        await yieldUntil { network.sent.count == 3 }
        await harness.answer(load, contentType: "application/octet-stream", text: "the items")

        #expect(network.sent.map { URL(string: $0.url)?.path } == ["/v1/api/items", "/v1/auth/token", "/v1/api/items"])
        #expect(
            network.sent.map { $0.header("Authorization") } == ["Bearer old", nil, "Bearer new"])
        #expect(items.latestData?.content as? Data == Data("the items".utf8))
        #expect(items.latestError == nil)
        #expect(observer.events == ["observerAdded", "requested", "newData(network)"])
    }

    @Test("two requests failing with 401 at once share one renewal")
    func sharedRenewal() async {
        let first = items.load()
        let second = harness.service.resource("/api/other").request(.get)
        await network.respond(status: 401)
        await network.respond(status: 401)
        await yieldUntil { network.sent.count == 3 }
        await network.respond(status: 200, contentType: "application/octet-stream", text: "new")
        await yieldUntil { network.sent.count == 5 }
        await network.respond(status: 200)
        await network.respond(status: 200)
        _ = await first.responseInfo
        _ = await second.responseInfo
        #expect(network.sent.filter { URL(string: $0.url)?.path == "/v1/auth/token" }.count == 1)
        #expect(first.completedResponse?.response.entity != nil)
        #expect(second.completedResponse?.response.entity != nil)
    }

    @Test("when the renewal fails, the request fails with its original 401")
    func renewalFails() async {
        let load = items.load()
        await network.respond(status: 401)
        await yieldUntil { network.sent.count == 2 }
        await network.respond(status: 500)
        let info = await load.responseInfo
        #expect(info.response.error?.httpStatusCode == 401)
        #expect(network.sent.count == 2)
        #expect(session.token == "old")
    }

    @Test("other failures pass through untouched")
    func otherFailures() async {
        let load = items.load()
        await harness.answer(load, status: 403)
        #expect(load.completedResponse?.response.error?.httpStatusCode == 403)
        #expect(network.sent.count == 1)
    }
}
