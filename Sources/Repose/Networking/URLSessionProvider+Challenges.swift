import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking

extension URLSessionProvider.SessionDelegate {
    /// Answers credential challenges off the network queue: swift-corelibs-foundation suspends or cancels the task
    /// from the answer with a synchronous call onto that queue, where this delegate runs.
    ///
    /// A 401 with no stored credential to try would hang until the request times out, so the provider ends the
    /// task and delivers the 401 itself. A challenge with a credential to try gets the default handling.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        let disposition: URLSession.AuthChallengeDisposition
        if challenge.proposedCredential == nil, let response = challenge.failureResponse ?? task.response {
            // Remembered, so that the task completes with that response (a 401, as on Apple platforms) instead of
            // the cancellation.
            _ = withTransfer(of: task) { $0.unansweredChallenge = response }
            disposition = .cancelAuthenticationChallenge
        } else {
            disposition = .performDefaultHandling
        }
        // The handler is not `Sendable` in this SDK; it is called once, on one queue, and never touched again here.
        let answer = UncheckedTransfer(completionHandler)
        DispatchQueue.global().async { answer.value(disposition, nil) }
    }
}
#endif
