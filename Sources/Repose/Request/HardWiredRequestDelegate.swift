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
