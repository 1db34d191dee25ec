import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// Authentication over real HTTP through `URLSessionProvider`: the loopback server accepts only `fresh-token`.
@MainActor
@Suite("R9 authentication over real HTTP", .checksLifetimes, .hangLimit)
final class AuthenticationIntegrationTests {
    let fixture: IntegrationFixture
    var service: Service { fixture.service }
    let recorder = RecordingLogHandler()

    init() async throws {
        fixture = try await IntegrationFixture()
    }

    /// Configures an authenticator that starts with `stale-token` and renews through `/auth/refresh`, which answers
    /// `fresh-token`; held by the server, if `hold` is given, until the test releases it. The refresh runs in a task
    /// of its own: its log lines go to the recorder too.
    func authenticate(holdingRefreshAs hold: String? = nil) -> Authenticator {
        let handler = recorder.handler
        let auth = Authenticator(credential: "stale-token") { service in
            try await ReposeLog.withEnabled(.all) {
                try await ReposeLog.withHandler(handler) {
                    try await service.resource("/auth/refresh").withParam("hold", hold).request(.post)
                        .content(as: String.self)
                }
            }
        }
        service.configure("/auth/**") { $0.authenticator = auth }
        return auth
    }

    /// The count the server keeps for `name`.
    func serverCount(_ name: String) async throws -> String? {
        try #require(await fixture.completion(of: service.resource("/count/\(name)").request(.get))).response.entity?
            .bodyText
    }

    @Test("R9 ten concurrent 401s: one refresh reaches the server, ten repeats succeed, one outcome per resource")
    func tenConcurrentUnauthorized() async throws {
        let auth = authenticate(holdingRefreshAs: "refresh")
        let resources = (0..<10).map { service.resource("/auth/private/\($0)") }
        let observers = resources.map { _ in RecordingObserver() }
        for (resource, observer) in zip(resources, observers) { resource.addObserver(observer) }

        try await ReposeLog.withEnabled(.all) {
            try await ReposeLog.withHandler(recorder.handler) {
                let loads = resources.map { $0.load() }
                // The refresh stays out until the server has turned all ten away: however the machine schedules the
                // loads, every 401 has left the server while the refresh is in flight.
                try #require(await fixture.server.waitForMark("held refresh"))
                try #require(await fixture.server.waitForMark("count unauthorized 10"))
                try #require(
                    await fixture.completion(of: service.resource("/store-release/refresh").request(.get)) != nil)
                for load in loads { try #require(await fixture.completion(of: load) != nil) }
            }
        }

        #expect(resources.map(\.text) == (0..<10).map { "private \($0)" })
        for observer in observers {
            #expect(observer.events == ["observerAdded", "requested", "newData(network)"])
        }
        #expect(try await serverCount("refresh") == "1")
        #expect(try await serverCount("unauthorized") == "10")
        #expect(auth.credential == "fresh-token")
        #expect(recorder.lines.contains { $0.contains("Renewing the credential") })
        #expect(recorder.lines.contains { $0.hasPrefix("networkDetails: POST") && $0.contains("/auth/refresh") })
        for line in recorder.lines {
            #expect(!line.contains("fresh-token") && !line.contains("stale-token"), "a log line shows a token: \(line)")
        }
    }

    @Test("R9 a refresh that fails fails every waiting load with its error")
    func refreshFails() async throws {
        let auth = Authenticator(credential: "stale-token") { service in
            try await service.resource("/status/403").request(.post).content(as: String.self)
        }
        service.configure("/auth/**") { $0.authenticator = auth }
        let resources = (0..<3).map { service.resource("/auth/private/\($0)") }
        let loads = resources.map { $0.load() }
        for load in loads {
            let info = try #require(await fixture.completion(of: load))
            #expect(info.response.error?.httpStatusCode == 403)
        }
        #expect(resources.allSatisfy { $0.latestError?.httpStatusCode == 403 })
        #expect(auth.credential == "stale-token")
    }

    @Test("R9 a 401 to an outdated credential is sent again with the current one, without a refresh")
    func outdatedCredential() async throws {
        let auth = authenticate()
        let load = service.resource("/auth/private/late").load()
        auth.credential = "fresh-token"  // signed in again while the first request was out
        let info = try #require(await fixture.completion(of: load))
        #expect(info.response.entity?.bodyText == "private late")
        #expect(try await serverCount("refresh") == "0")
    }
}
