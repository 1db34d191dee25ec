/// Starts a request after a wait on the service's scheduler, and completes with its response: the pause between
/// two attempts of a retried request (rule R5).
///
/// Cancelling it during the wait cancels the timer, so the request is never sent; after the wait it cancels the
/// request.
@MainActor
final class DelayedRequestDelegate: RequestDelegate {
    private let wrapped: Request
    private let delay: Duration
    private let scheduler: any Scheduler & Sendable
    private var timer: ScheduledWork?

    init(wrapping wrapped: Request, after delay: Duration, on scheduler: any Scheduler & Sendable) {
        self.wrapped = wrapped
        self.delay = delay
        self.scheduler = scheduler
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
        wrapped.onProgress { progress in
            if progress < 1 { completionHandler.broadcastProgress(progress) }
        }
        wrapped.onCompletion { info in completionHandler.broadcastResponse(info) }
        wrapped.start()
    }

    func cancelUnderlyingOperation() {
        timer?.cancel()
        timer = nil
        wrapped.cancel()
    }

    func repeated() -> any RequestDelegate {
        DelayedRequestDelegate(wrapping: wrapped.repeated(), after: delay, on: scheduler)
    }

    var requestDescription: String {
        "\(wrapped.requestDescription) after \(delay)"
    }
}
