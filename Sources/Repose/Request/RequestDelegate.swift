/// The work behind a ``Request``: Repose's own network requests, chains, hard-wired responses, or your own.
///
/// Write a delegate to make anything request-shaped (a login flow, a local computation) usable wherever Repose
/// expects a request, including ``Resource/load(using:)``. Create the request with
/// ``Resource/prepareRequest(using:)``, which returns it unstarted.
@MainActor
public protocol RequestDelegate: AnyObject {
    /// Starts the work. Call `completionHandler.broadcastResponse(_:)` once when it is done; later calls are
    /// ignored.
    func startUnderlyingOperation(passingResponseTo completionHandler: RequestCompletionHandler)

    /// Stops the work. The request has already completed as cancelled; nothing needs to be broadcast.
    func cancelUnderlyingOperation()

    /// A fresh delegate that will do the same work again.
    func repeated() -> any RequestDelegate

    /// A short description for logs, e.g. `GET https://api.example.com/users`.
    var requestDescription: String { get }
}

/// How a ``RequestDelegate`` reports its result and progress to its request.
@MainActor
public final class RequestCompletionHandler {
    /// Strong until the request completes, so that a request nobody else holds (a chain, say) still completes
    /// and runs its hooks; whoever holds the handler holds the request.
    private var request: Request?

    init(request: Request) {
        self.request = request
    }

    /// Lets go of the completed request.
    func detach() {
        request = nil
    }

    /// Whether a broadcast would be ignored: the request already completed or was cancelled.
    public var willIgnore: Bool {
        guard let request else { return true }
        return request.state == .completed || !request.isCurrent(self)
    }

    /// Completes the request with `info`, delivered verbatim to its hooks (no transformer pipeline).
    public func broadcastResponse(_ info: ResponseInfo) {
        guard !willIgnore else { return }
        request?.complete(with: info)
    }

    /// Reports progress from 0 to 1.
    public func broadcastProgress(_ progress: Double) {
        guard !willIgnore else { return }
        request?.updateProgress(min(progress, 1))
    }
}
