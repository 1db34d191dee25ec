import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The next attempt of a network request, once the retry policy asked for one, and a new request for the same call:
/// what a load that succeeds at once never runs.
extension NetworkRequest {
    /// Whether the request waits for its next attempt.
    var isWaitingToRetry: Bool { retries.wait != nil }

    /// Sends the next attempt after `seconds` on the service's timers, built anew when the wait ends.
    func retry(after seconds: TimeInterval) {
        retries.attempt += 1
        let of = retries.policy?.maximumAttempts ?? retries.attempt
        logScope.outcome?(.network, "\(requestDescription): attempt \(retries.attempt) of \(of) in \(seconds) s")
        // The timer holds this request while it waits, as the provider does while it is in flight.
        retries.wait = resource.core.timers.after(seconds: seconds) {
            guard let handler = self.handler, !handler.willIgnore else { return }
            self.retries.wait = nil
            self.urlRequest = self.buildRequest()  // built now: what is current after the wait
            self.effectiveMethod = Self.method(of: self.urlRequest) ?? self.method
            self.send()
        }
    }

    /// A new request for the same call, counting this one's attempts in its metrics.
    func repeated() -> any RequestDelegate {
        let repeated = NetworkRequest(
            resource: resource, method: method, destination: destination, buildRequest: buildRequest)
        repeated.retries.prior = retries.count
        repeated.priority = priority
        return repeated
    }
}
