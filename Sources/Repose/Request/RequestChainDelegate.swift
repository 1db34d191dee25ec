/// The work behind ``Request/chained(whenCompleted:)``: wait for the wrapped request, ask the closure what to do,
/// and do it.
@MainActor
final class RequestChainDelegate: RequestDelegate {
    private let wrapped: Request
    private let whenCompleted: @MainActor (ResponseInfo) -> RequestChainAction
    /// Set before this chain cancels the wrapped request, so that the cancellation it causes does not reach the
    /// closure.
    private var isCancelled = false
    /// A request this chain started itself with `.passTo`: nobody else holds it, so cancelling the chain
    /// cancels it too. A request that was already running may be shared and is left alone.
    private var ownedSuccessor: Request?

    init(wrapping wrapped: Request, whenCompleted: @escaping @MainActor (ResponseInfo) -> RequestChainAction) {
        self.wrapped = wrapped
        self.whenCompleted = whenCompleted
    }

    func startUnderlyingOperation(passingResponseTo completionHandler: RequestCompletionHandler) {
        forwardProgress(of: wrapped, to: completionHandler)
        wrapped.onCompletion { [self] info in
            guard !isCancelled, !completionHandler.willIgnore else { return }
            perform(whenCompleted(info), on: info, completionHandler)
        }
        wrapped.start()
    }

    private func perform(
        _ action: RequestChainAction, on info: ResponseInfo, _ completionHandler: RequestCompletionHandler
    ) {
        switch action {
        case .useThisResponse:
            completionHandler.broadcastResponse(info)
        case .useResponse(let substitute):
            completionHandler.broadcastResponse(substitute)
        case .passTo(let successor):
            if successor.state == .notStarted {
                ownedSuccessor = successor
            }
            forwardProgress(of: successor, to: completionHandler)
            successor.onCompletion { [weak self] next in
                self?.ownedSuccessor = nil
                completionHandler.broadcastResponse(next)
            }
            successor.start()
        }
    }

    /// Passes on progress short of completion: the chain itself only reaches 1 when it completes, which may be
    /// long after the request it is waiting on.
    private func forwardProgress(of request: Request, to completionHandler: RequestCompletionHandler) {
        request.onProgress { progress in
            if progress < 1 { completionHandler.broadcastProgress(progress) }
        }
    }

    func cancelUnderlyingOperation() {
        isCancelled = true
        wrapped.cancel()
        ownedSuccessor?.cancel()
        ownedSuccessor = nil
    }

    func repeated() -> any RequestDelegate {
        RequestChainDelegate(wrapping: wrapped.repeated(), whenCompleted: whenCompleted)
    }

    var requestDescription: String {
        "chain(\(wrapped.requestDescription))"
    }
}
