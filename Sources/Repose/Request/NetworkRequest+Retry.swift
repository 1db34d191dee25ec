import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The next attempt of a network request, once the retry policy asked for one (rule R5), and a new request for the
/// same call: what a load that succeeds at once never runs.
extension NetworkRequest {

    /// Whether the request waits for its next attempt.
    var isWaitingToRetry: Bool { retryTimer != nil }

    /// Sends the next attempt after `seconds` on the service's timers, built anew when the wait ends.
    func retry(after seconds: TimeInterval) {
        attempt += 1
        outcomeLog?(
            .network,
            "\(requestDescription): attempt \(attempt) of \(retryPolicy?.maximumAttempts ?? attempt) in \(seconds) s")
        // The timer holds this request while it waits, as the provider does while it is in flight.
        retryTimer = resource.core.timers.after(seconds: seconds) {
            guard let handler = self.handler, !handler.willIgnore else { return }
            self.retryTimer = nil
            self.urlRequest = self.buildRequest()  // built now: what is current after the wait
            self.effectiveMethod = Self.method(of: self.urlRequest) ?? self.method
            self.send()
        }
    }

    /// A new request for the same call, counting this one's attempts in its metrics.
    func repeated() -> any RequestDelegate {
        let repeated = NetworkRequest(
            resource: resource, method: method, destination: destination, buildRequest: buildRequest)
        repeated.priorAttempts = priorAttempts + attempt
        return repeated
    }

    /// The method and redacted URL, for logs.
    var requestDescription: String {
        let description = "\(effectiveMethod.rawValue) \(ReposeLog.describe(url: urlRequest.url ?? resource.url))"
        return destination == nil ? description : description + " → file"
    }
}
