import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request's attempts (rule R5): which one is under way, the policy that may ask for another, and the wait before
/// it.
struct Retries {
    /// The attempt under way, from 1.
    var attempt = 1
    /// The attempts of the requests this one repeats, for its metrics.
    var prior = 0
    var policy: RetryPolicy?
    /// The policy's wait before the next attempt, while it runs.
    var wait: TimerToken?

    /// How many attempts the request has made, those it repeats included.
    var count: Int { prior + attempt }

    mutating func cancelWait() {
        wait?.cancel()
        wait = nil
    }
}

/// The next attempt of a network request, once the retry policy asked for one, and a new request for the same call:
/// what a load that succeeds at once never runs.
extension NetworkRequest {
    /// Whether the request waits for its next attempt.
    var isWaitingToRetry: Bool { retries.wait != nil }

    /// How long to wait before another attempt, if the policy wants one after `info`.
    func retryWait(after info: ResponseInfo) -> TimeInterval? {
        guard let policy = retries.policy, policy.methods.contains(effectiveMethod),
            case .retry(let seconds) = policy.decision(after: info, attempt: retries.attempt)
        else { return nil }
        return seconds
    }

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
        return repeated
    }

    /// The method and redacted URL, for logs.
    var requestDescription: String {
        let description = "\(effectiveMethod.rawValue) \(ReposeLog.describe(url: urlRequest.url ?? resource.url))"
        switch destination {
        case .memory: return description
        case .file: return description + " → file"
        case .events: return description + " (event stream)"
        }
    }
}
