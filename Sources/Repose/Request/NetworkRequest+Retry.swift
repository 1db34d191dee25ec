import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The next attempt of a network request, once the retry policy asked for one (rule R5), and a new request for the
/// same call: what a load that succeeds at once never runs.
extension NetworkRequest {

    /// Whether the request waits for its next attempt.
    var isWaitingToRetry: Bool { attempts.retryTimer != nil }

    /// Whether a monitor measures this request.
    var isMeasuring: Bool { attempts.metrics != nil }

    /// Sends the next attempt after `seconds`, built anew when the wait ends.
    func retry(after seconds: TimeInterval) {
        attempts.count(nextAfter: seconds, of: retryPolicy, requestDescription)
        // The timer holds this request while it waits, as the provider does while it is in flight.
        attempts.retryTimer = resource.core.timers.after(seconds: seconds) {
            guard let handler = self.handler, !handler.willIgnore else { return }
            self.attempts.retryTimer = nil
            self.urlRequest = self.buildRequest()  // built now: what is current after the wait
            self.effectiveMethod = Self.method(of: self.urlRequest) ?? self.method
            self.send()
        }
    }

    /// A new request for the same call, counting this one's attempts in its metrics.
    func repeated() -> any RequestDelegate {
        let repeated = NetworkRequest(resource: resource, method: method, buildRequest: buildRequest)
        repeated.attempts.prior = attempts.prior + attempts.number
        return repeated
    }

    /// The method and redacted URL, for logs.
    var requestDescription: String {
        "\(effectiveMethod.rawValue) \(ReposeLog.describe(url: urlRequest.url ?? resource.url))"
    }
}
