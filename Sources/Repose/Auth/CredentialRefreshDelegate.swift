import Foundation
import ReposeSignals

/// The work behind an ``Authenticator``'s refresh: runs the app's closure in a task on the main actor, hands the new
/// credential to the authenticator, then completes, so that the requests waiting for it are repeated with the new
/// credential. The credential never goes into the response: success is an empty entity.
///
/// The refresh has a time limit on the service's timers (rule T6): when it passes first, the closure's task is
/// cancelled and the refresh fails with ``RequestError/Cause/CredentialRefreshTimedOut``, whatever the closure does
/// later.
@MainActor
final class CredentialRefreshDelegate: RequestDelegate {
    private let authenticator: Authenticator
    private let service: Service
    private let timeLimit: TimeInterval
    /// The `network` log handler of the request that was turned away.
    private let log: ReposeLog.MessageHandler?
    private var task: Task<Void, Never>?
    private var deadline: TimerToken?
    /// Set once the refresh has an outcome (or was cancelled): a closure that returns after that is ignored.
    private var isOver = false

    init(authenticator: Authenticator, service: Service, timeLimit: TimeInterval, log: ReposeLog.MessageHandler?) {
        self.authenticator = authenticator
        self.service = service
        self.timeLimit = timeLimit
        self.log = log
    }

    func startUnderlyingOperation(passingResponseTo completionHandler: RequestCompletionHandler) {
        // An infinite or absurd limit (or NaN) means never: a billion seconds.
        let seconds = timeLimit.isNaN ? .infinity : timeLimit
        deadline = service.core.timers.after(seconds: seconds) { [weak self, weak completionHandler] in
            self?.timeOut(completionHandler)
        }
        task = Task { @MainActor [self] in
            let response: Response
            do {
                let credential = try await authenticator.runRefresh(for: service)
                guard end() else { return }
                authenticator.refreshEnded(with: credential)
                response = .success(Entity<Any>(content: Data(), contentType: "application/octet-stream"))
            } catch {
                guard end() else { return }
                let failure = RequestError(
                    wrapping: error, fallbackMessage: "Your session has expired. Please sign in again.",
                    timestamp: service.core.now())
                authenticator.refreshEnded(with: nil, failure: failure)
                response = .failure(failure)
                log?(.network, "Renewing the credential failed: \(failure.userMessage)")
            }
            completionHandler.broadcastResponse(ResponseInfo(response: response))
        }
    }

    /// Marks the refresh over and lets go of its task and deadline; `false` if it already was.
    private func end() -> Bool {
        guard !isOver else { return false }
        isOver = true
        task = nil
        deadline?.cancel()
        deadline = nil
        return true
    }

    /// The time limit passed first: the closure is cancelled, and the requests waiting fail with a timeout. No
    /// verdict on the credential: the next 401 may refresh again.
    private func timeOut(_ completionHandler: RequestCompletionHandler?) {
        let running = task
        guard end() else { return }
        running?.cancel()
        authenticator.refreshEnded(with: nil)
        log?(.network, "Renewing the credential took longer than \(timeLimit) s; it was cancelled")
        let error = RequestError(
            userMessage: "Signing in again took too long. Please try again.",
            cause: RequestError.Cause.CredentialRefreshTimedOut(timeLimit: timeLimit), timestamp: service.core.now())
        completionHandler?.broadcastResponse(ResponseInfo(response: .failure(error)))
    }

    /// Cancels the app's closure (its task); the requests waiting for it fail as cancelled.
    func cancelUnderlyingOperation() {
        let running = task
        guard end() else { return }
        running?.cancel()
        authenticator.refreshEnded(with: nil)
    }

    func repeated() -> any RequestDelegate {
        CredentialRefreshDelegate(authenticator: authenticator, service: service, timeLimit: timeLimit, log: log)
    }

    var requestDescription: String {
        "credential refresh"
    }
}
