import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@MainActor
@Suite("The networking guide's timeouts", .checksLifetimes)
struct NetworkingGuideTests {
    let harness = Harness(baseURL: "https://api.example.com/v1")

    @Test("the provider's session gets the guide's configuration")
    func sessionConfiguration() throws {
        let api = networkingGuideService()
        LifetimeCheck.track(api)
        let provider = try #require(api.networking as? URLSessionProvider)
        #expect(provider.session.configuration.timeoutIntervalForRequest == 20)
        #expect(provider.session.configuration.timeoutIntervalForResource == 120)
        #expect(provider.session.configuration.httpAdditionalHeaders?["User-Agent"] as? String == "Reader/2.1")
    }

    @Test("a configured mutator and a one-off mutation both set the request's timeout")
    func perRequestTimeout() async {
        networkingGuideConfigureReports(harness.service)
        let report = harness.service.resource("/reports/2025")
        _ = report.load()
        let other = harness.service.resource("/users/1").load()
        _ = networkingGuideOneRequest(harness.service)
        #expect(harness.network.sent.map(\.timeoutInterval) == [300, 60, 300])
        await harness.network.failPending()
        _ = await other.responseInfo
    }

    @Test("a timeout fails the load with the URLError as its cause, no status, and Repose's message")
    func timeoutError() async throws {
        let report = harness.service.resource("/reports/2025")
        let request = networkingGuideTimeout(report)
        await harness.network.fail(with: URLError(.timedOut))
        let error = try #require(await request.responseInfo.response.error)
        #expect((error.cause as? URLError)?.code == .timedOut)
        #expect(error.httpStatusCode == nil && error.entity == nil)
        #expect(error.userMessage == "The server took too long to respond.")
        #expect(report.latestError?.userMessage == error.userMessage)
        await Task.yield()
        #expect(networkingGuidePrinted.contains("The server took too long to respond."))
    }
}
