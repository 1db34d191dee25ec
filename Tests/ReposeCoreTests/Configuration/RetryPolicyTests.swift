import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@Suite("R5 the retry decision, without time")
struct RetryPolicyTests {
    let policy = RetryPolicy(maximumAttempts: 5, baseDelay: 2, maximumDelay: 10, jitter: 1, randomFraction: { 0.25 })

    func failure(_ status: Int, headers: [String: String] = [:]) -> ResponseInfo {
        let entity = Entity<Any>(content: Data(), contentType: "text/plain", headers: headers)
        return ResponseInfo(response: .failure(RequestError(httpStatusCode: status, entity: entity, timestamp: 100)))
    }

    @Test("R5 waits grow 2, 4, 8, then stop at the maximum, each with its jitter taken off")
    func backoff() {
        let waits = (1...4).map { policy.decision(after: failure(503), attempt: $0) }
        #expect(waits == [.retry(after: 1.5), .retry(after: 3), .retry(after: 6), .retry(after: 7.5)])
        #expect(policy.decision(after: failure(503), attempt: 5) == .stop)
    }

    @Test("R5 Retry-After sets a floor; beyond the maximum delay it stops")
    func retryAfter() {
        #expect(policy.decision(after: failure(429, headers: ["Retry-After": "9"]), attempt: 1) == .retry(after: 9))
        #expect(policy.decision(after: failure(429, headers: ["Retry-After": "1"]), attempt: 3) == .retry(after: 6))
        #expect(policy.decision(after: failure(429, headers: ["Retry-After": "10"]), attempt: 1) == .retry(after: 10))
        #expect(policy.decision(after: failure(429, headers: ["Retry-After": "11"]), attempt: 1) == .stop)
    }

    @Test("R5 successes, cancellations and other errors stop at once")
    func stops() {
        let success = ResponseInfo(response: .success(Entity<Any>(content: Data(), contentType: "text/plain")))
        #expect(policy.decision(after: success, attempt: 1) == .stop)
        #expect(policy.decision(after: .cancellation(timestamp: 0), attempt: 1) == .stop)
        #expect(policy.decision(after: failure(400), attempt: 1) == .stop)
        let parse = RequestError(
            userMessage: "Cannot parse server response", cause: CocoaError(.propertyListReadCorrupt))
        #expect(policy.decision(after: ResponseInfo(response: .failure(parse)), attempt: 1) == .stop)
        let tooLarge = RequestError(userMessage: "big", cause: RequestError.Cause.ResponseTooLarge(maximumSize: 1))
        #expect(policy.decision(after: ResponseInfo(response: .failure(tooLarge)), attempt: 1) == .stop)
    }

    @Test("R5 out-of-range settings are clamped, never a crash")
    func clamped() {
        let odd = RetryPolicy(maximumAttempts: 9, baseDelay: -1, maximumDelay: 5, jitter: 7, randomFraction: { 3 })
        #expect(odd.decision(after: failure(500), attempt: 1) == .retry(after: 0))
        let huge = RetryPolicy(maximumAttempts: 500, baseDelay: 1, maximumDelay: 5, jitter: 0)
        #expect(huge.decision(after: failure(500), attempt: 400) == .retry(after: 5))
    }
}
