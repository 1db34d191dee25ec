/// Makes and starts a request after a wait on the service's scheduler, and completes with its response: the pause
/// between two attempts of a retried request (rule R5).
///
/// The request is made when the wait is over, not before, so it carries what is current then: headers, the
/// credential, the ETag. Cancelling during the wait cancels the timer, so nothing is made or sent; after the wait it
/// cancels the request.
@MainActor
final class DelayedRequestDelegate: RequestDelegate {
    private let makeRequest: @MainActor () -> Request
    private let delay: Duration
    private let scheduler: any Scheduler & Sendable
    private var timer: ScheduledWork?
    private var wrapped: Request?
    /// What the request will be, for logs, until it is made.
    private let description: String

    init(
        after delay: Duration, on scheduler: any Scheduler & Sendable, description: String,
        making makeRequest: @escaping @MainActor () -> Request
    ) {
        self.makeRequest = makeRequest
        self.delay = delay
        self.scheduler = scheduler
        self.description = description
    }

    func startUnderlyingOperation(passingResponseTo completionHandler: RequestCompletionHandler) {
        // The service's scheduler runs actions on the main actor (MainScheduler on the main queue, TestScheduler on
        // the thread that advances it, the main actor in tests). The timer holds this delegate until it fires or is
        // cancelled, as a network task holds its request.
        timer = scheduler.schedule(after: delay) { [self] in
            MainActor.assumeIsolated { send(passingResponseTo: completionHandler) }
        }
    }

    private func send(passingResponseTo completionHandler: RequestCompletionHandler) {
        timer = nil
        guard !completionHandler.willIgnore else { return }
        let wrapped = makeRequest()
        self.wrapped = wrapped
        wrapped.onProgress { progress in
            if progress < 1 { completionHandler.broadcastProgress(progress) }
        }
        wrapped.onCompletion { info in completionHandler.broadcastResponse(info) }
        wrapped.start()
    }

    func cancelUnderlyingOperation() {
        timer?.cancel()
        timer = nil
        wrapped?.cancel()
    }

    func repeated() -> any RequestDelegate {
        DelayedRequestDelegate(after: delay, on: scheduler, description: description, making: makeRequest)
    }

    var requestDescription: String {
        wrapped?.requestDescription ?? "\(description) after \(delay)"
    }
}
