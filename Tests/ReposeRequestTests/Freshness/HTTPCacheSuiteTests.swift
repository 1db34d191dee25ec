import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// Other projects' HTTP cache cases that apply to a private client cache, run through the public API: a load
/// answered with the case's response, the clock moved on, then the question `loadIfNeeded()` asks (is there data,
/// and is it up to date?). Docs/Freshness.md states the tally and why each case that differs does.
@MainActor
@Suite("W4 HTTP cache suites' cases, run through a resource", .checksLifetimes)
struct HTTPCacheSuiteTests {
    let harness = Harness()
    /// When every case's response arrives: 2025-06-15, so that the suites' fixed dates (2016) are in the past.
    nonisolated static let received: TimeInterval = 1_750_000_000

    init() {
        harness.clock.now = Self.received
        harness.service.configure { $0.freshness = .fromHTTPHeaders }
    }

    @Test("W4 a suite's case: is the response reused that long after it arrived?", arguments: HTTPCacheSuiteCase.all)
    func reuse(_ testCase: HTTPCacheSuiteCase) async {
        let resource = harness.service.resource("/page")
        await harness.answer(
            resource.load(), status: testCase.status, headers: testCase.resolvedHeaders(received: Self.received))
        harness.clock.now = Self.received + testCase.after
        let reused = resource.latestData != nil && resource.isUpToDate
        #expect(reused == testCase.reposeReuses)
        #expect(testCase.agrees == (testCase.why == nil), "a case that differs says why, and only such a case")
    }

    @Test("W4 the tally Docs/Freshness.md states: 71 cases, 58 agree, 13 differ for six documented reasons")
    func tally() {
        let cases = HTTPCacheSuiteCase.all
        #expect(cases.count == 71)
        #expect(cases.filter(\.agrees).count == 58)
        #expect(Set(cases.compactMap(\.why)).count == 6)
    }

    struct Revalidation: Sendable, CustomTestStringConvertible {
        let name: String
        let first: [String: String]
        let notModified: [String: String]
        let validator: String
        let freshAfter: Bool
        let header: String
        var testDescription: String { "WPT fetch/http-cache 304 updates: \(name)" }
    }

    nonisolated static let revalidations: [Revalidation] = [
        Revalidation(
            name: "updates returned headers from a Last-Modified 304",
            first: ["Expires": "{-5000}", "Last-Modified": "{-3000}", "Test-Header": "A"],
            notModified: ["Expires": "{-3000}", "Last-Modified": "{-3000}", "Test-Header": "B"],
            validator: "If-Modified-Since", freshAfter: false, header: "Test-Header"),
        Revalidation(
            name: "updates stored headers from a Last-Modified 304",
            first: ["Expires": "{-5000}", "Last-Modified": "{-3000}", "Test-Header": "A"],
            notModified: ["Expires": "{3000}", "Last-Modified": "{-3000}", "Test-Header": "B"],
            validator: "If-Modified-Since", freshAfter: true, header: "Test-Header"),
        Revalidation(
            name: "updates returned headers from an ETag 304",
            first: ["Expires": "{-5000}", "ETag": "ABC", "Test-Header": "A"],
            notModified: ["Expires": "{-3000}", "ETag": "ABC", "Test-Header": "B"],
            validator: "If-None-Match", freshAfter: false, header: "Test-Header"),
        Revalidation(
            name: "updates stored headers from an ETag 304",
            first: ["Expires": "{-5000}", "ETag": "DEF", "Test-Header": "A"],
            notModified: ["Expires": "{3000}", "ETag": "DEF", "Test-Header": "B"],
            validator: "If-None-Match", freshAfter: true, header: "Test-Header"),
        Revalidation(
            name: "Content-* header",
            first: ["Expires": "{-5000}", "ETag": "GHI", "Content-Test-Header": "A"],
            notModified: ["Expires": "{3000}", "ETag": "GHI", "Content-Test-Header": "B"],
            validator: "If-None-Match", freshAfter: true, header: "Content-Test-Header"),
    ]

    @Test("W4 a 304's headers replace the stored ones, and its lifetime is read from them", arguments: revalidations)
    func revalidation(_ row: Revalidation) async throws {
        let resource = harness.service.resource("/page")
        let dated = { (headers: [String: String]) in
            HTTPCacheSuiteCase(suite: "", name: "", headers: headers, after: 0, suiteReuses: true, reposeReuses: true)
                .resolvedHeaders(received: Self.received)
        }
        await harness.answer(resource.load(), headers: dated(row.first))
        #expect(!resource.isUpToDate)  // expired when it arrived
        let request = try #require(resource.loadIfNeeded())
        #expect(harness.network.sent.last?.header(row.validator) != nil)
        let info = await harness.answer(request, status: 304, headers: dated(row.notModified))
        #expect(info.response.entity?.header(forKey: row.header) == "B")  // returned headers
        #expect(resource.latestData?.header(forKey: row.header) == "B")  // stored headers
        #expect(resource.isUpToDate == row.freshAfter)
    }
}

/// The rows of issue 29 about freshness and Retry-After, each through the public API.
@MainActor
@Suite("W4 W5 freshness and Retry-After as a private cache reads them", .checksLifetimes)
struct PrivateCacheFreshnessTests {
    let harness = Harness()
    var resource: Resource { harness.service.resource("/a") }

    init() {
        harness.service.configure { $0.freshness = .fromHTTPHeaders }
    }

    @Test(
        "W4 no-store, Vary: *, an invalid max-age, must-revalidate or no-cache without a lifetime: stale at once",
        arguments: [
            ["Cache-Control": "no-store"], ["Cache-Control": "no-store, max-age=10000"],
            ["Cache-Control": "max-age=60", "Vary": "*"], ["Cache-Control": "max-age=-1"],
            ["Cache-Control": "max-age=1.5"], ["Cache-Control": "max-age=soon"], ["Cache-Control": "must-revalidate"],
            ["Cache-Control": "no-cache"],
        ])
    func staleAtOnce(headers: [String: String]) async {
        await harness.answer(resource.load(), headers: headers)
        #expect(!resource.isUpToDate)
        #expect(resource.currentState.isStale)
        #expect(resource.loadIfNeeded() != nil)
    }

    @Test("W4 with fixed freshness, no-store still keeps the configured time (only the caches refuse it)")
    func fixedPolicyIgnoresHeaders() async {
        harness.service.configure { $0.freshness = .fixed }
        await harness.answer(resource.load(), headers: ["Cache-Control": "no-store"])
        #expect(resource.isUpToDate)
    }

    @Test("W4 a 200 with max-age=10, then a 304 with max-age=100: fresh for 100 s from the 304")
    func notModifiedUpdatesLifetime() async throws {
        await harness.answer(resource.load(), headers: ["Cache-Control": "max-age=10", "ETag": "\"v1\""])
        harness.clock.now += 20
        let request = try #require(resource.loadIfNeeded())
        await harness.answer(request, status: 304, headers: ["Cache-Control": "max-age=100"])
        #expect(resource.latestData?.header(forKey: "Cache-Control") == "max-age=100")
        #expect(resource.latestData?.etag == "\"v1\"")  // what the 304 did not name stays
        harness.clock.now += 90
        #expect(resource.isUpToDate)
        harness.clock.now += 11
        #expect(!resource.isUpToDate)
    }

    @Test("W4 a 304 with Date and Expires replaces both; a stored Age goes when the 304 has none")
    func notModifiedReplacesDateAndAge() async throws {
        let start = harness.clock.now
        let date = HTTPCacheSuiteCase.httpDate
        await harness.answer(
            resource.load(),
            headers: ["Date": date(start), "Expires": date(start + 60), "Age": "30", "Content-Type": "text/plain"])
        #expect(resource.isUpToDate)
        harness.clock.now = start + 40
        let request = resource.load()
        await harness.answer(
            request, status: 304, contentType: "application/json",
            headers: ["Date": date(start + 40), "Expires": date(start + 140)])
        #expect(resource.latestData?.header(forKey: "Date") == date(start + 40))
        #expect(resource.latestData?.header(forKey: "Age") == nil)
        #expect(resource.latestData?.contentType == "text/plain")  // a 304 does not describe a new body
        harness.clock.now = start + 139
        #expect(resource.isUpToDate)
    }

    @Test("W5 Retry-After: 2147483647 keeps loadIfNeeded quiet for an hour at most")
    func retryAfterCapped() async {
        harness.service.configure { $0.retryTime = 1 }
        let start = harness.clock.now
        await harness.answer(resource.load(), status: 503, headers: ["Retry-After": "2147483647"])
        harness.clock.now = start + RetryPolicy.longestServerWait - 1
        #expect(resource.loadIfNeeded() == nil)
        harness.clock.now = start + RetryPolicy.longestServerWait
        #expect(resource.loadIfNeeded() != nil)
    }

    @Test("W5 a retry policy waits at most an hour for a Retry-After that asks for 68 years")
    func retryPolicyCapped() {
        let policy = RetryPolicy(maximumDelay: 2 * RetryPolicy.longestServerWait, randomFraction: { 0 })
        let entity = Entity<Any>(content: Data(), contentType: "text/plain", headers: ["Retry-After": "2147483647"])
        let error = RequestError(httpStatusCode: 503, entity: entity, timestamp: 1_000)
        #expect(
            policy.decision(after: ResponseInfo(response: .failure(error)), attempt: 1)
                == .retry(after: RetryPolicy.longestServerWait))
        #expect(
            RetryPolicy().decision(after: ResponseInfo(response: .failure(error)), attempt: 1) == .stop,
            "beyond the default 30 s maximumDelay, retrying still stops")
    }
}
