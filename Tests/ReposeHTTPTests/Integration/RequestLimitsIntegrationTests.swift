import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// The service's queue in front of a real network (rule Q1): `URLSessionProvider` against the loopback server, whose
/// store holds each request until the test lets it answer.
@MainActor
@Suite("Q1 request limits over real HTTP", .checksLifetimes)
final class RequestLimitsIntegrationTests {
    let fixture: IntegrationFixture
    let capped: Service

    init() async throws {
        fixture = try await IntegrationFixture()
        capped = Service(
            baseURL: "http://127.0.0.1:\(fixture.server.port)",
            options: .init(networking: URLSessionProvider(), limits: RequestLimits(perHost: 2)))
        LifetimeCheck.track(capped)
    }

    /// The store paths the server has been asked for so far, by any service.
    private func asked() async throws -> Set<String> {
        let info = try #require(await fixture.completion(of: fixture.service.resource("/store-log").load()))
        let log = try #require(info.response.entity?.content as? [[String: Any]])
        return Set(log.compactMap { $0["path"] as? String }.filter { $0.hasPrefix("/store/q") })
    }

    /// Lets the requests the server holds as `name` answer; sent by the fixture's service, which has no cap.
    private func release(_ name: String) async {
        _ = await fixture.completion(of: fixture.service.resource("/store-release/\(name)").load())
    }

    @Test("Q1 with a per-host cap of 2, a third request reaches the server only once one of the first two is answered")
    func capOfTwo() async throws {
        let loads = (1...3).map { capped.resource("/store/q\($0)").withParam("hold", "h\($0)").load() }
        try #require(await fixture.server.waitForMark("held h1"))
        try #require(await fixture.server.waitForMark("held h2"))
        #expect(try await asked() == ["/store/q1", "/store/q2"])
        #expect(capped.resource("/store/q3").withParam("hold", "h3").isLoading)

        await release("h1")
        try #require(await fixture.server.waitForMark("held h3"))
        #expect(try await asked() == ["/store/q1", "/store/q2", "/store/q3"])
        await release("h2")
        await release("h3")
        for load in loads {
            #expect(await fixture.completion(of: load) != nil)
        }
    }
}
