import Foundation

/// The work behind an ``Authenticator``'s refresh: runs the app's closure in a task on the main actor, hands the new
/// credential to the authenticator, then completes, so that the requests waiting for it are repeated with the new
/// credential. The credential never goes into the response: success is an empty entity.
@MainActor
final class CredentialRefreshDelegate: RequestDelegate {
    private let authenticator: Authenticator
    private let service: Service
    private let now: @Sendable () -> Double
    /// The `network` log handler of the request that was turned away.
    private let log: ReposeLog.MessageHandler?
    private var task: Task<Void, Never>?

    init(
        authenticator: Authenticator, service: Service, now: @escaping @Sendable () -> Double,
        log: ReposeLog.MessageHandler?
    ) {
        self.authenticator = authenticator
        self.service = service
        self.now = now
        self.log = log
    }

    func startUnderlyingOperation(passingResponseTo completionHandler: RequestCompletionHandler) {
        task = Task { @MainActor [self] in
            let response: Response
            do {
                let credential = try await authenticator.runRefresh(for: service)
                authenticator.refreshEnded(with: credential)
                response = .success(Entity<Any>(content: Data(), contentType: "application/octet-stream"))
            } catch {
                authenticator.refreshEnded(with: nil)
                response = .failure(
                    RequestError(
                        wrapping: error, fallbackMessage: "Your session has expired. Please sign in again.",
                        timestamp: now()))
                log?(.network, "Renewing the credential failed: \(response.error?.userMessage ?? "")")
            }
            task = nil
            completionHandler.broadcastResponse(ResponseInfo(response: response))
        }
    }

    /// Cancels the app's closure (its task); the requests waiting for it fail as cancelled.
    func cancelUnderlyingOperation() {
        task?.cancel()
        task = nil
        authenticator.refreshEnded(with: nil)
    }

    func repeated() -> any RequestDelegate {
        CredentialRefreshDelegate(authenticator: authenticator, service: service, now: now, log: log)
    }

    var requestDescription: String {
        "credential refresh"
    }
}
