import Foundation

extension Authenticator {
    /// A request began waiting for `refresh`.
    func waiterJoined(_ refresh: Request) {
        guard refresh === self.refresh else { return }
        refreshWaiters += 1
    }

    /// A request stopped waiting for `refresh` (it was cancelled): when none is left, nobody wants the refresh's
    /// outcome, and it is cancelled rather than left running (rule T6).
    func waiterLeft(_ refresh: Request) {
        guard refresh === self.refresh else { return }
        refreshWaiters -= 1
        if refreshWaiters <= 0 { refresh.cancel() }
    }
}

/// Completes with the response of an ``Authenticator``'s refresh, which it does not own: many requests wait for one
/// refresh this way. Cancelling one leaves the refresh to the others; cancelling the last cancels the refresh.
@MainActor
final class RefreshWaiterDelegate: RequestDelegate {
    private let authenticator: Authenticator
    private let refresh: Request
    /// Between start and completion or cancellation: what the authenticator counts.
    private var isWaiting = false

    init(authenticator: Authenticator, refresh: Request) {
        self.authenticator = authenticator
        self.refresh = refresh
    }

    func startUnderlyingOperation(passingResponseTo completionHandler: RequestCompletionHandler) {
        isWaiting = true
        authenticator.waiterJoined(refresh)
        refresh.onCompletion { [weak self] info in
            self?.isWaiting = false
            completionHandler.broadcastResponse(info)
        }
    }

    func cancelUnderlyingOperation() {
        guard isWaiting else { return }
        isWaiting = false
        authenticator.waiterLeft(refresh)
    }

    func repeated() -> any RequestDelegate {
        RefreshWaiterDelegate(authenticator: authenticator, refresh: refresh)
    }

    var requestDescription: String {
        "waiting for \(refresh.requestDescription)"
    }
}
