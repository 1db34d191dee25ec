import Foundation
import Repose
import ReposeTesting
import Testing

@testable import ReposeTestSupport

// The examples of Docs/Freshness.md, compiled and run on the stub provider, so that the guide cannot rot. Keep the
// two in step.

/// What the guide's example keeps its tokens in.
@MainActor
final class GuideKeychain {
    var accessToken: String? = "expired"
    var refreshToken = "r1"
}

struct SessionExpired: Error {}

@MainActor
@Suite(
    "The examples of the freshness, retries and authentication guide", .checksLifetimes, .hangLimit)
struct FreshnessGuideTests {
    let network = StubNetworkingProvider()
    let scheduler = TestScheduler(now: .seconds(1_000))
    let api: Service

    init() {
        api = Service(baseURL: "https://api.example.com", options: .init(networking: network, scheduler: scheduler))
        LifetimeCheck.track(api)
    }

    @Test("R9 the guide's authenticator renews an expired token and the load goes through")
    func authenticator() async {
        let keychain = GuideKeychain()
        let auth = Authenticator(credential: keychain.accessToken) { service in
            let reply = try await service.resource("/auth/token")
                .request(.post, json: ["refresh_token": keychain.refreshToken])
                .content(as: [String: Any].self)
            guard let token = reply["access_token"] as? String else { throw SessionExpired() }
            keychain.accessToken = token
            return token
        }
        api.configure("/api/**") { $0.authenticator = auth }
        network.stub(
            StubMatcher(.get, "https://api.example.com/api/me").header("Authorization", "Bearer expired"), .status(401))
        network.stub(
            StubMatcher(.get, "https://api.example.com/api/me").header("Authorization", "Bearer t2"),
            .json(["name": "Ada"]))
        network.stub(.post, "https://api.example.com/auth/token", json: ["access_token": "t2"])

        let me = await api.resource("/api/me").load().response

        #expect(me.entity?.jsonDict["name"] as? String == "Ada")
        #expect(keychain.accessToken == "t2")
        #expect(network.requests.map(\.url).last == "https://api.example.com/api/me")
    }

    @Test("R5 the guide's retry policies: idempotent methods by default, POST where named")
    func retryPolicies() {
        api.configure {
            $0.retryPolicy = RetryPolicy(maximumAttempts: 4, baseDelay: 0.5, maximumDelay: 20)
        }
        api.configure("/payments", requestMethods: [.post]) {
            $0.retryPolicy = RetryPolicy(maximumAttempts: 3, methods: [.post])
        }
        api.configure("/catalog/**") { $0.freshness = .fromHTTPHeaders }
        #expect(api.resource("/users").configuration.retryPolicy?.maximumAttempts == 4)
        #expect(api.resource("/payments").configuration(for: .post).retryPolicy?.methods == [.post])
        #expect(api.resource("/catalog/1").configuration.freshness == .fromHTTPHeaders)
        #expect(api.resource("/users").configuration.freshness == .fixed)
    }

    @Test("R9 another scheme: the credential in a header of its own")
    func apiKey() async {
        let auth = Authenticator(
            credential: "k1",
            authorize: { request, key in
                request.setValue(key, forHTTPHeaderField: "X-API-Key")
            }
        ) { _ in "k2" }
        api.configure { $0.authenticator = auth }
        network.stub(StubMatcher(.get, "https://api.example.com/a").header("X-API-Key", "k1"), .status(204))
        let response = await api.resource("/a").load().response
        #expect(response.error == nil)
    }
}
