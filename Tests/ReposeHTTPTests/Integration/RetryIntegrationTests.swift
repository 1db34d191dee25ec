import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// Retries over real HTTP through `URLSessionProvider`, with the waits on virtual time.
@MainActor
@Suite("R5 retries over real HTTP", .checksLifetimes)
final class RetryIntegrationTests {
    let fixture: IntegrationFixture
    let scheduler = TestScheduler(now: .seconds(1000))
    let service: Service

    init() async throws {
        fixture = try await IntegrationFixture()
        service = Service(
            baseURL: "http://127.0.0.1:\(fixture.server.port)",
            options: .init(networking: fixture.provider, scheduler: scheduler))
        LifetimeCheck.track(service)
        service.configure {
            $0.retryPolicy = RetryPolicy(maximumAttempts: 3, baseDelay: 0.1, jitter: 0)
        }
    }

    @Test("R5 R4 a 503 with Retry-After, then a 200: one load, sent twice, waiting as long as the server asked")
    func serviceUnavailableThenSuccess() async throws {
        let resource = service.resource("/flaky/twice").withParams(["fails": "1", "status": "503", "after": "2"])
        let observer = RecordingObserver()
        resource.addObserver(observer)
        let load = resource.load()

        let delegate = try #require(load.delegate as? NetworkRequest)
        try #require(await eventually { delegate.isWaitingToRetry }, "the 503 arrives and a retry waits")
        scheduler.advance(by: .milliseconds(1_990))
        #expect(delegate.isWaitingToRetry, "Retry-After: 2 outweighs the 0.1 s backoff")
        #expect(load.state == .inProgress)
        scheduler.advance(by: .milliseconds(10))
        #expect(!delegate.isWaitingToRetry, "the retry's timer fired")
        let info = try #require(await fixture.completion(of: load))

        #expect(info.response.entity?.bodyText == "attempt 2")
        #expect(observer.events == ["observerAdded", "requested", "newData(network)"])
        let count = try #require(await fixture.completion(of: service.resource("/count/twice").request(.get)))
        #expect(count.response.entity?.bodyText == "2")
    }
}
