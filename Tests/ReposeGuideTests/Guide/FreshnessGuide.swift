import Foundation
import Repose

@testable import ReposeTestSupport

// The Swift blocks of Docs/Freshness.md, verbatim, so that they compile (GuideSnippetTests checks that each block
// appears here). FreshnessGuideTests and FreshnessGuideScreenTests run them.

/// Where the guide's API key comes from.
struct GuideKeyServer {
    func rotate() async throws -> String { "k2" }
}

/// Formats a time for the banner of the guide's stale-state example.
func clockTime(_ timestamp: TimeInterval?) -> String {
    guard let timestamp else { return "earlier" }
    let seconds = Int(timestamp) % 86_400
    return String(format: "%02d:%02d", seconds / 3_600, seconds % 3_600 / 60)
}

@MainActor
enum FreshnessGuide {
    static func overview(api: Service, auth: Authenticator) {
        api.configure("/api/**") {
            $0.freshness = .fromHTTPHeaders
            $0.retryPolicy = RetryPolicy(maximumAttempts: 4, baseDelay: 0.5)
            $0.authenticator = auth
        }
    }

    static func polling(api: Service) {
        api.configure("/notifications") { $0.refreshInterval = 60 }
    }

    static func reconnect() -> Service {
        let connectivity = SignalSource<Void>()
        let api = Service(baseURL: "https://api.example.com", options: .init(reconnected: connectivity.signal))

        // Wherever your app learns that the network is back (a socket reconnecting, a health check passing):
        connectivity.send(())
        return api
    }

    static func retries(api: Service) {
        api.configure {
            $0.retryPolicy = RetryPolicy(maximumAttempts: 4, baseDelay: 0.5, maximumDelay: 20)
        }
        api.configure("/payments", requestMethods: [.post]) {
            $0.retryPolicy = RetryPolicy(maximumAttempts: 3, methods: [.post])
        }
    }

    static func authenticator(api: Service, keychain: GuideKeychain, newToken: String) {
        let auth = Authenticator(credential: keychain.accessToken) { service in
            let reply = try await service.resource("/auth/token")
                .request(.post, json: ["refresh_token": keychain.refreshToken])
                .content(as: [String: Any].self)
            guard let token = reply["access_token"] as? String else { throw SessionExpired() }
            keychain.accessToken = token
            return token
        }
        api.configure("/api/**") { $0.authenticator = auth }

        // Signing in and out:
        auth.credential = newToken
        auth.credential = nil
    }

    static func apiKeyAuthenticator(apiKey: String, keyServer: GuideKeyServer) -> Authenticator {
        let auth = Authenticator(
            credential: apiKey,
            authorize: { request, key in
                request.setValue(key, forHTTPHeaderField: "X-API-Key")
            }
        ) { _ in try await keyServer.rotate() }
        return auth
    }
}

/// The guide's screen that says whether its data is stale.
@MainActor
final class FreshnessGuideScreen {
    var banner: String?

    func show(_ profile: Resource) {
        profile.state.observe(owner: self) { owner, state in
            owner.banner =
                switch (state.isLoading, state.isStale, state.latestError) {
                case (true, true, _): "Refreshing…"
                case (false, true, .some): "Offline, showing data from \(clockTime(state.latestData?.timestamp))"
                default: nil
                }
        }
    }
}

@MainActor
final class Session {
    let api: Service
    var token = ""
    var refreshToken = ""
    private var renewal: Request?

    init(api: Service) {
        self.api = api
        api.configure("/api/**") { [unowned self] in
            $0.headers["Authorization"] = "Bearer \(token)"
            $0.decorateRequests { [unowned self] _, request in renewingTokenOnAuthFailure(request) }
        }
    }

    func renewingTokenOnAuthFailure(_ request: Request) -> Request {
        request.chained { [unowned self] info in
            guard info.response.error?.httpStatusCode == 401 else { return .useThisResponse }
            return .passTo(
                renewToken().chained { renewal in
                    // Renewed: send the original request again. Not renewed: report the original 401.
                    renewal.response.error == nil ? .passTo(request.repeated()) : .useResponse(info)
                })
        }
    }

    /// One renewal at a time, shared by every request that failed meanwhile.
    func renewToken() -> Request {
        if let renewal { return renewal }
        let request = api.resource("/auth/token").request(.post, json: ["refresh": refreshToken])
            .onSuccess { [unowned self] entity in
                token = entity.jsonDict["token"] as? String ?? ""
                api.invalidateConfiguration()
            }
            .onCompletion { [unowned self] _ in renewal = nil }
        renewal = request
        return request
    }
}
