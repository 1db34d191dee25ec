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
/// A refresh cannot hang or storm. It has a time limit (``refreshTimeLimit``, 30 seconds by default, on the
/// service's clock): when it passes, the refresh is cancelled and every request waiting for it fails with
/// ``RequestError/Cause/CredentialRefreshTimedOut``; the next 401 may start another. Cancelling every request that
/// waits for a refresh cancels the refresh. After a refresh fails, requests that would carry the credential it
/// could not renew fail at once with its error (``refreshFailure``) instead of being sent, until you set
/// ``credential`` or call ``retryRefresh()``; so however many requests are turned away, one refresh runs.
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
        didSet {
            generation &+= 1
            refreshFailure = nil  // a new credential deserves a chance of its own
        }
    }

    /// Whether a refresh is under way.
    public var isRefreshing: Bool { refresh != nil }

    /// How long a refresh may take, in seconds of the service's clock, before it is cancelled and the requests
    /// waiting for it fail with ``RequestError/Cause/CredentialRefreshTimedOut``. 30 seconds by default.
    public var refreshTimeLimit: TimeInterval = 30

    /// The error of the last refresh, if it failed and nothing has happened since: while it is set, requests that
    /// would carry the current credential fail at once with it, without being sent. Setting ``credential`` or
    /// calling ``retryRefresh()`` clears it. A refresh that timed out or was cancelled leaves it unset.
    public private(set) var refreshFailure: RequestError?

    /// Lets requests go out again with the current credential after a failed refresh (see ``refreshFailure``): the
    /// next 401 starts a new refresh. Call it when renewing may work again, say once the user is back online.
    public func retryRefresh() {
        refreshFailure = nil
    }

    /// Counts credentials: a request records the one it was sent with, to tell a rejected current credential from
    /// an outdated one.
    private(set) var generation = 0
    /// The refresh under way, which requests turned away join.
    private(set) var refresh: Request?
    /// The credential the refresh under way renews (its ``generation``): its failure condemns that one only.
    private var refreshedGeneration = 0
    /// How many requests wait for the refresh under way; when the last of them is cancelled, so is the refresh.
    var refreshWaiters = 0
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
                authenticator: self, service: resource.service, timeLimit: refreshTimeLimit, log: log),
            now: resource.core.now)
        refresh = request
        refreshedGeneration = generation
        refreshWaiters = 0
        log?(.network, "Renewing the credential after a 401 to \(ReposeLog.describe(url: resource.url))")
        return request.start()
    }

    /// Runs the app's refresh closure, as this authenticator's refresh.
    func runRefresh(for service: Service) async throws -> String {
        try await Self.$refreshing.withValue(self) { try await renew(service) }
    }

    /// Takes the refresh's outcome: a new credential on success, the error of a failure (which stops requests with
    /// the credential it could not renew), or neither for a timeout or a cancellation. Called before any request
    /// waiting for it hears.
    func refreshEnded(with credential: String?, failure: RequestError? = nil) {
        refresh = nil
        refreshWaiters = 0
        if let credential {
            self.credential = credential
        } else if let failure, generation == refreshedGeneration {
            refreshFailure = failure  // unless the app set a credential meanwhile
        }
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
