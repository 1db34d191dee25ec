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

/// A request whose response is known in advance: `failedRequest(returning:)` and `hardWiredRequest(returning:)`.
@MainActor
final class HardWiredRequestDelegate: RequestDelegate {
    private let response: Response

    init(response: Response) {
        self.response = response
    }

    func startUnderlyingOperation(passingResponseTo completionHandler: RequestCompletionHandler) {
        completionHandler.broadcastResponse(ResponseInfo(response: response))
    }

    func cancelUnderlyingOperation() {}

    func repeated() -> any RequestDelegate {
        HardWiredRequestDelegate(response: response)
    }

    var requestDescription: String {
        "hard-wired response"
    }
}
