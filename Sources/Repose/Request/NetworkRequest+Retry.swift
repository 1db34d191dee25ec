import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The next attempt of a network request or a download, once the retry policy asked for one (rule R5), and a new
/// request for the same call: what a load that succeeds at once never runs.
extension RetryingRequest {
    /// Counts the next attempt and sends it after `seconds` on the service's timers.
    func retry(after seconds: TimeInterval, of policy: RetryPolicy) {
        attempts.number += 1
        let number = attempts.number
        attempts.log?(.network, "\(requestDescription): attempt \(number) of \(policy.maximumAttempts) in \(seconds) s")
        // The timer holds this request while it waits, as the provider does while it is in flight.
        attempts.retryTimer = attempts.resource.core.timers.after(seconds: seconds) {
            guard let handler = self.handler, !handler.willIgnore else { return }
            self.attempts.retryTimer = nil
            self.sendNext()
        }
    }
}

extension NetworkRequest {
    /// Whether the request waits for its next attempt.
    var isWaitingToRetry: Bool { attempts.retryTimer != nil }

    /// Whether a monitor measures this request.
    var isMeasuring: Bool { attempts.metrics != nil }

    func sendNext() {
        urlRequest = buildRequest()  // built now: what is current after the wait
        effectiveMethod = Self.method(of: urlRequest) ?? method
        send()
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
