import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends a credential with every request it is configured for, and renews it once when the server turns it away:
/// ``Configuration/authenticator``.
///
/// ```swift
/// let auth = Authenticator(credential: keychain.accessToken) { service in
///     let reply = try await service.resource("/auth/token")
///         .request(.post, json: ["refresh_token": keychain.refreshToken])
///         .content(as: [String: Any].self)
///     guard let token = reply["access_token"] as? String else { throw SessionExpired() }
///     keychain.accessToken = token
///     return token
/// }
/// api.configure("/api/**") { $0.authenticator = auth }
/// ```
///
/// Each request carries the credential current when it is built (`Authorization: Bearer …` unless you pass
/// another `authorize` function). A 401 to a request that carried the current credential starts one refresh;
/// every request turned away meanwhile joins it, and every request started meanwhile waits for it. Then each is
/// sent again, once, with the new credential; if the refresh throws, they all fail with its error. A 401 to a
/// request that carried an older credential is sent again with the current one, without a refresh. The caller
/// and the resource's observers see one request with one outcome.
///
/// Requests that `refresh` makes itself (in its own task, or a `Task { }` it starts, not a detached task) are sent
/// without the credential and never wait for the refresh, so the token endpoint may lie under the same pattern. The credential stays in memory: Repose never writes it to disk,
/// and log lines show `Authorization` as `<redacted>` (see ``ReposeLog/sensitiveNames``).
@MainActor
public final class Authenticator {
    /// Renews the credential and returns the new one; throws when it cannot (the session is over). It receives the
    /// service of the request that was turned away, to send its own requests through.
    public typealias Refresh = @MainActor (Service) async throws -> String

    /// Adds `credential` to a request about to be sent.
    public typealias Authorize = @MainActor (inout URLRequest, _ credential: String) -> Void

    /// The credential sent with each request; `nil` sends none. Set it when the user signs in or out; a refresh
    /// sets it to what ``Refresh`` returned.
    public var credential: String? {
        didSet { generation &+= 1 }
    }

    /// Whether a refresh is under way.
    public var isRefreshing: Bool { refresh != nil }

    /// Counts credentials: a request records the one it was sent with, to tell a rejected current credential from
    /// an outdated one.
    private(set) var generation = 0
    /// The refresh under way, which requests turned away join.
    private(set) var refresh: Request?
    private let applyCredential: Authorize
    private let renew: Refresh

    /// Creates an authenticator.
    ///
    /// - Parameters:
    ///   - credential: The credential to send until a refresh replaces it; `nil` for none yet.
    ///   - authorize: How a credential goes into a request; ``bearer(_:_:)`` (an `Authorization: Bearer` header)
    ///     by default.
    ///   - refresh: Renews the credential once a request carrying it was answered 401.
    public init(
        credential: String?,
        authorize: @escaping Authorize = Authenticator.bearer,
        refresh: @escaping Refresh
    ) {
        self.credential = credential
        self.applyCredential = authorize
        self.renew = refresh
    }

    /// Sets `Authorization: Bearer <credential>`.
    public static func bearer(_ request: inout URLRequest, _ credential: String) {
        request.setValue("Bearer \(credential)", forHTTPHeaderField: "Authorization")
    }

    // MARK: Refreshing

    /// The authenticator whose `refresh` closure the current task is running: its requests go without it.
    @TaskLocal static var refreshing: Authenticator?

    /// Whether the current task is this authenticator's refresh.
    var isInsideRefresh: Bool { Self.refreshing === self }

    /// The refresh under way, or a new one, started now, for `resource`'s service; `log` is the `network` handler
    /// of the request that was turned away.
    func startRefresh(for resource: Resource, log: ReposeLog.MessageHandler?) -> Request {
        if let refresh { return refresh }
        let request = Request(
            delegate: CredentialRefreshDelegate(
                authenticator: self, service: resource.service, now: resource.core.now, log: log),
            now: resource.core.now)
        refresh = request
        log?(.network, "Renewing the credential after a 401 to \(ReposeLog.describe(url: resource.url))")
        return request.start()
    }

    /// Runs the app's refresh closure, as this authenticator's refresh.
    func runRefresh(for service: Service) async throws -> String {
        try await Self.$refreshing.withValue(self) { try await renew(service) }
    }

    /// Takes the refresh's outcome: a new credential on success. Called before any request waiting for it hears.
    func refreshEnded(with credential: String?) {
        refresh = nil
        if let credential { self.credential = credential }
    }

    /// The built-in mutator: adds the current credential, except to the refresh's own requests.
    func authorize(_ request: inout URLRequest) {
        guard let credential, !isInsideRefresh else { return }
        applyCredential(&request, credential)
    }
}

extension Authenticator: CustomStringConvertible {
    /// A name for logs: never the credential.
    public nonisolated var description: String { "Authenticator" }
}
