extension RetryPolicy {
    /// The built-in decorator behind ``Configuration/retryPolicy`` (rule R5): a request whose method the policy
    /// covers is wrapped in a chain that sends it again while ``decision(after:attempt:)`` says so; any other
    /// request is returned as it is, with nothing added.
    ///
    /// Each retry is `request.repeated()`, built afresh when its wait is over (current headers and credential, the
    /// current ETag), and started by a ``DelayedRequestDelegate`` on the service's scheduler. The chains nest, one per
    /// attempt, so cancelling the outermost one, which is the request the caller holds, cancels whichever attempt or
    /// wait is under way.
    @MainActor
    func decorate(_ resource: Resource, _ request: Request) -> Request {
        guard maximumAttempts > 1, let network = request.delegate as? NetworkRequestDelegate,
            methods.contains(network.effectiveMethod)
        else { return request }
        return retrying(
            request, repeating: request, attempt: 1, on: resource.core.scheduler,
            log: LogSettings.handler(for: .network))
    }

    /// `attempt` (the request `original` itself, or one of its repeats after a wait), chained to what comes next.
    @MainActor
    private func retrying(
        _ attempt: Request, repeating original: Request, attempt number: Int, on scheduler: any Scheduler & Sendable,
        log: ReposeLog.MessageHandler?
    ) -> Request {
        attempt.chained { info in
            guard case .retry(let seconds) = decision(after: info, attempt: number) else { return .useThisResponse }
            log?(
                .network, "\(original.requestDescription): attempt \(number + 1) of \(maximumAttempts) in \(seconds) s")
            let wait = Request(
                delegate: DelayedRequestDelegate(
                    after: .seconds(seconds), on: scheduler, description: original.requestDescription,
                    making: original.repeated),
                now: original.now)
            return .passTo(retrying(wait, repeating: original, attempt: number + 1, on: scheduler, log: log))
        }
    }
}
