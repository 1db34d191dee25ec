import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// Retries on the manual network and virtual time: every wait is the scheduler's, and the test moves it.
@MainActor
@Suite("R5 retries with backoff", .checksLifetimes)
struct RequestRetryingTests {
    let harness = Harness()
    var network: ManualNetwork { harness.network }
    var scheduler: TestScheduler { harness.scheduler }
    var resource: Resource { harness.service.resource("/items") }

    /// Retries with waits of 1, 2, 4… seconds (at most 30), no jitter unless a test asks for it.
    func retrying(
        _ change: (inout RetryPolicy) -> Void = { _ in }
    ) {
        var policy = RetryPolicy(maximumAttempts: 4, baseDelay: 1, maximumDelay: 30, jitter: 0, randomFraction: { 0 })
        change(&policy)
        harness.service.configure { [policy] in $0.retryPolicy = policy }
    }

    /// Answers the oldest request with `status`, then waits until the retry's timer is set (or the request ended).
    func fail(_ request: Request, status: Int, headers: [String: String] = [:]) async {
        await network.respond(status: status, headers: headers)
        await waitUntil { waitsToRetry(request) || request.state == .completed }
    }

    /// Whether `request` waits for its next attempt.
    func waitsToRetry(_ request: Request) -> Bool {
        (request.delegate as? NetworkRequest)?.isWaitingToRetry == true
    }

    /// Moves virtual time on by `milliseconds`, exactly.
    func advance(milliseconds: Int) {
        scheduler.advance(by: .milliseconds(milliseconds))
    }

    /// Answers the oldest pending request and waits for `request`; records an issue instead of waiting forever
    /// when nothing is pending.
    func answer(
        _ request: Request, status: Int = 200, text: String = "", sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        guard network.pendingCount > 0 else {
            Issue.record("no request pending", sourceLocation: sourceLocation)
            request.cancel()
            return
        }
        await harness.answer(request, status: status, text: text)
    }

    @Test("R5 a 503 is sent again after the wait; observers and hooks see one outcome, the success")
    func retriesThenSucceeds() async {
        retrying()
        let observer = RecordingObserver()
        resource.addObserver(observer)
        var outcomes: [String] = []
        let load = resource.load().onCompletion { outcomes.append($0.response.entity?.text ?? "failure") }

        await fail(load, status: 503)
        advance(milliseconds: 999)
        #expect(network.sent.count == 1)
        #expect(resource.isLoading)
        #expect(resource.loadIfNeeded() === load)  // A20: still the one load
        advance(milliseconds: 1)
        #expect(network.sent.count == 2)
        await answer(load, text: "at last")

        #expect(outcomes == ["at last"])
        #expect(observer.events == ["observerAdded", "requested", "newData(network)"])
        #expect(resource.text == "at last")
        #expect(resource.latestError == nil)
    }

    @Test(
        "R5 waits double each time, up to the maximum delay",
        arguments: [(30, [1, 2, 4]), (3, [1, 2, 3])] as [(Double, [Double])])
    func exponentialBackoff(maximumDelay: Double, waits: [Double]) async {
        retrying { $0.maximumDelay = maximumDelay }
        let load = resource.load()
        for (index, wait) in waits.enumerated() {
            await fail(load, status: 500)
            advance(milliseconds: Int(wait * 1000) - 10)
            #expect(network.sent.count == index + 1, "waited less than \(wait) s")
            advance(milliseconds: 10)
            #expect(network.sent.count == index + 2, "waited \(wait) s")
        }
        await answer(load, text: "done")
        #expect(load.completedResponse?.response.entity?.text == "done")
    }

    @Test("R5 jitter takes a random share off each wait, from the injected source")
    func jitter() async {
        retrying {
            $0.jitter = 0.5
            $0.randomFraction = { 0.5 }
        }
        let load = resource.load()
        await fail(load, status: 502)
        advance(milliseconds: 740)
        #expect(network.sent.count == 1)
        advance(milliseconds: 10)  // 1 s × (1 − 0.5 × 0.5)
        #expect(network.sent.count == 2)
        await answer(load)
    }

    @Test("R5 after the last attempt the request fails with the last response; observers see one error")
    func givesUp() async {
        retrying { $0.maximumAttempts = 3 }
        let observer = RecordingObserver()
        resource.addObserver(observer)
        var failures = 0
        let load = resource.load().onFailure { _ in failures += 1 }
        await fail(load, status: 500)
        advance(milliseconds: 1000)
        await fail(load, status: 502)
        advance(milliseconds: 2000)
        await answer(load, status: 504)

        #expect(network.sent.count == 3)
        #expect(!waitsToRetry(load))
        #expect(load.completedResponse?.response.error?.httpStatusCode == 504)
        #expect(failures == 1)
        #expect(observer.events == ["observerAdded", "requested", "error"])
        #expect(resource.latestError?.httpStatusCode == 504)
    }

    @Test(
        "R5 R4 never sooner than Retry-After, in seconds or as a date",
        arguments: ["5", "Thu, 01 Jan 1970 00:16:45 GMT"])
    func honoursRetryAfter(retryAfter: String) async {
        retrying()
        let load = resource.load()
        // Sent and answered at t=1000, 00:16:40 GMT: both values say five seconds.
        await fail(load, status: 429, headers: ["Retry-After": retryAfter])
        advance(milliseconds: 4990)
        #expect(network.sent.count == 1)
        advance(milliseconds: 10)
        #expect(network.sent.count == 2)
        await answer(load)
    }

    @Test("R5 a Retry-After beyond the maximum delay ends the retries: the request fails with that response")
    func retryAfterTooLong() async {
        retrying { $0.maximumDelay = 10 }
        let observer = RecordingObserver()
        resource.addObserver(observer)
        let load = resource.load()
        await harness.answer(load, status: 503, headers: ["Retry-After": "11"])
        #expect(network.sent.count == 1)
        #expect(!waitsToRetry(load))
        #expect(load.completedResponse?.response.error?.httpStatusCode == 503)
        #expect(load.completedResponse?.response.error?.entity?.header(forKey: "Retry-After") == "11")
        #expect(observer.events == ["observerAdded", "requested", "error"])
    }

    @Test("R5 transport errors that may pass are retried", arguments: [URLError.Code.networkConnectionLost, .timedOut])
    func transientTransportErrors(code: URLError.Code) async {
        retrying()
        let load = resource.load()
        await network.fail(with: URLError(code))
        await waitUntil { waitsToRetry(load) }
        advance(milliseconds: 1000)
        #expect(network.sent.count == 2)
        await answer(load, text: "back")
        #expect(resource.text == "back")
    }

    @Test(
        "R5 failures that would fail again are not retried",
        arguments: [
            RetryCase.status(404), .status(401), .status(501), .transport(.badURL),
            .transport(.serverCertificateUntrusted),
        ])
    func permanentFailures(failure: RetryCase) async {
        retrying()
        let load = resource.load()
        switch failure {
        case .status(let status): await network.respond(status: status)
        case .transport(let code): await network.fail(with: URLError(code))
        }
        _ = await load.responseInfo
        #expect(network.sent.count == 1)
        #expect(!waitsToRetry(load))
        #expect(load.completedResponse?.response.error != nil)
    }

    @Test("R5 POST and PATCH are not retried by default", arguments: [RequestMethod.post, .patch])
    func postNotRetried(method: RequestMethod) async {
        retrying()
        let write = resource.request(method, text: "hello")
        await answer(write, status: 503)
        #expect(network.sent.count == 1)
        #expect(!waitsToRetry(write))
        #expect(write.completedResponse?.response.error?.httpStatusCode == 503)
    }

    @Test("R5 POST is retried when the policy names it, with the same body")
    func postRetriedWhenConfigured() async {
        retrying { $0.methods.insert(.post) }
        let post = resource.request(.post, text: "hello")
        await fail(post, status: 503)
        advance(milliseconds: 1000)
        await answer(post, status: 201)
        #expect(network.sent.map(\.httpMethod) == ["POST", "POST"])
        #expect(network.sent.map(\.body) == [Data("hello".utf8), Data("hello".utf8)])
        #expect(post.completedResponse?.response.entity != nil)
    }

    @Test("R5 cancelling during a wait stops the retries at once: nothing more is sent")
    func cancelDuringWait() async {
        retrying()
        let observer = RecordingObserver()
        resource.addObserver(observer)
        let load = resource.load()
        await fail(load, status: 503)
        load.cancel()
        #expect(load.completedResponse?.response.isCancellation == true)
        #expect(!waitsToRetry(load))
        advance(milliseconds: 60000)
        #expect(network.sent.count == 1)
        await waitUntil { observer.events.count == 3 }
        #expect(observer.events == ["observerAdded", "requested", "requestCancelled"])
    }

    @Test("R5 cancelling during a later attempt cancels that attempt's network task")
    func cancelDuringRetry() async {
        retrying()
        let load = resource.load()
        await fail(load, status: 503)
        advance(milliseconds: 1000)
        #expect(network.pendingCount == 1)
        load.cancel()
        #expect(network.pendingCount == 0)
        #expect(network.cancelledCount == 1)
        #expect(load.completedResponse?.response.isCancellation == true)
    }

    @Test("R5 each attempt is built when its wait is over: it carries what is current then")
    func attemptsAreBuiltLate() async {
        retrying()
        var stamp = "first"
        harness.service.configure {
            $0.mutateRequests { request in request.setValue(stamp, forHTTPHeaderField: "X-Stamp") }
        }
        let load = resource.load()
        await fail(load, status: 503)
        stamp = "changed during the wait"
        advance(milliseconds: 1000)
        await answer(load)
        #expect(network.sent.map { $0.header("X-Stamp") } == ["first", "changed during the wait"])
    }

    @Test("R5 with no policy, or one allowing a single attempt, a failure is reported at once")
    func offCostsNothing() async {
        let unconfigured = resource.request(.get)
        await answer(unconfigured, status: 503)
        retrying { $0.maximumAttempts = 1 }
        let single = resource.request(.get)
        await answer(single, status: 503)
        #expect(network.sent.count == 2)
        #expect(!waitsToRetry(single))
        #expect(single.completedResponse?.response.error?.httpStatusCode == 503)
    }

    @Test("R5 a retried chain repeats from its first attempt")
    func repeatedChain() async {
        retrying { $0.maximumAttempts = 2 }
        let load = resource.load()
        await fail(load, status: 503)
        advance(milliseconds: 1000)
        await answer(load, status: 503)
        let again = load.repeated().start()
        await fail(again, status: 503)
        advance(milliseconds: 1000)
        await answer(again, text: "second time lucky")
        #expect(network.sent.count == 4)
        #expect(again.completedResponse?.response.entity?.text == "second time lucky")
        #expect(load.completedResponse?.response.error?.httpStatusCode == 503)
    }
}

/// A failure for a table of retry cases.
enum RetryCase: Sendable, CustomTestStringConvertible {
    case status(Int)
    case transport(URLError.Code)

    var testDescription: String {
        switch self {
        case .status(let status): "status \(status)"
        case .transport(let code): "URLError \(code.rawValue)"
        }
    }
}
