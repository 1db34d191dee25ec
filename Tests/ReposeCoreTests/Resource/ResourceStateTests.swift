import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@MainActor
@Suite("Resource state and loading", .checksLifetimes)
struct ResourceStateTests {
    let harness = Harness()
    var resource: Resource { harness.service.resource("/a/b") }

    @Test("A1 a fresh resource has no data, no error, no requests")
    func freshResource() {
        #expect(resource.latestData == nil)
        #expect(resource.latestError == nil)
        #expect(!resource.isLoading)
        #expect(!resource.isRequesting)
        #expect(resource.loadRequests.isEmpty && resource.allRequests.isEmpty)
    }

    @Test("A4 load() sets isLoading before returning and clears it once the response is handled")
    func loadingFlag() async {
        let request = resource.load()
        #expect(resource.isLoading)
        #expect(resource.isRequesting)
        await harness.answer(request, text: "hello")
        #expect(!resource.isLoading)
        #expect(!resource.isRequesting)
    }

    @Test("A11 a later 200 replaces content, content type and etag")
    func laterSuccessReplaces() async {
        await harness.answer(resource.load(), contentType: "text/plain", text: "one", headers: ["ETag": "v1"])
        await harness.answer(resource.load(), contentType: "application/x-two", text: "two", headers: ["ETag": "v2"])
        #expect(resource.latestData?.contentType == "application/x-two")
        #expect(resource.latestData?.etag == "v2")
        #expect(resource.latestData?.content as? Data == Data("two".utf8))
    }

    @Test("A12 a 304 keeps the entity but re-stamps it with the 304's time, clears the error, reports not modified")
    func notModified() async throws {
        await harness.answer(resource.load(), text: "one", headers: ["ETag": "v1"])
        #expect(resource.latestData?.timestamp == 1000)
        harness.clock.now = 1100
        await harness.answer(resource.load(), status: 500)  // fail once, to have an error to clear
        #expect(resource.latestError != nil)
        #expect(resource.latestData?.timestamp == 1000)  // a failure does not touch the data

        harness.clock.now = 1200
        let revalidation = resource.load()
        #expect(harness.network.sent.last?.header("If-None-Match") == "v1")
        var hooks: [String] = []
        revalidation.onSuccess { _ in hooks.append("success") }
            .onNotModified { hooks.append("notModified") }
            .onNewData { _ in hooks.append("newData") }
        await harness.answer(revalidation, status: 304)
        #expect(resource.latestError == nil)
        #expect(resource.text == "one")
        #expect(resource.latestData?.etag == "v1")
        // The entity itself carries the confirmation time, not only the resource's freshness books.
        #expect(resource.latestData?.timestamp == 1200)
        #expect(hooks == ["success", "notModified"])
    }

    @Test("A13 a transport error fails the load and keeps its domain and code as the cause")
    func transportError() async throws {
        let request = resource.load()
        await harness.network.fail(with: NSError(domain: "org.example.test", code: 42))
        await _ = request.responseInfo
        let error = try #require(resource.latestError)
        let cause = try #require(error.cause as NSError?)
        #expect(cause.domain == "org.example.test" && cause.code == 42)
        #expect(resource.latestData == nil)
    }

    @Test(
        "A14 every HTTP status from 400 up is a failure with its status code",
        arguments: Array(400...410) + Array(500...505))
    func errorStatuses(status: Int) async {
        await harness.answer(resource.load(), status: status, text: "nope")
        #expect(resource.latestError?.httpStatusCode == status)
        #expect(resource.latestData == nil)
    }

    @Test("A15 after a failure the previous data stays alongside the error")
    func staleDataWithError() async {
        await harness.answer(resource.load(), text: "good")
        await harness.answer(resource.load(), status: 503)
        #expect(resource.text == "good")
        #expect(resource.latestError?.httpStatusCode == 503)
    }

    @Test("A17 the user message comes from the underlying error's localized description")
    func userMessageFromCause() async {
        let request = resource.load()
        await harness.network.fail(
            with: NSError(domain: "org.example.test", code: 1, userInfo: [NSLocalizedDescriptionKey: "Flux capacitor"]))
        await _ = request.responseInfo
        #expect(resource.latestError?.userMessage == "Flux capacitor")
    }

    @Test("A19 loadIfNeeded on a never-loaded resource starts a load and returns it")
    func loadIfNeededStarts() {
        let request = resource.loadIfNeeded()
        #expect(request != nil)
        #expect(resource.loadRequests.first === request)
        #expect(harness.network.sent.count == 1)
    }

    @Test("A20 loadIfNeeded returns the load already in flight, starting nothing")
    func loadIfNeededReturnsInFlight() {
        let first = resource.load()
        let second = resource.loadIfNeeded()
        #expect(second === first)
        #expect(harness.network.sent.count == 1)
    }

    @Test("A21 a request in flight that is not a load does not satisfy loadIfNeeded")
    func nonLoadRequestDoesNotCount() {
        resource.request(.post)
        let load = resource.loadIfNeeded()
        #expect(load != nil)
        #expect(harness.network.sent.map(\.httpMethod) == ["POST", "GET"])
    }

    @Test("A22 data loaded at t=1000 is fresh at t=1010 and stale at t=2000")
    func defaultExpiration() async {
        await harness.answer(resource.load(), text: "x")
        harness.clock.now = 1010
        #expect(resource.loadIfNeeded() == nil)
        #expect(harness.network.sent.count == 1)
        harness.clock.now = 2000
        #expect(resource.loadIfNeeded() != nil)
        #expect(harness.network.sent.count == 2)
    }

    @Test("A22 data is fresh until a moment before expirationTime has passed, and stale at exactly expirationTime")
    func expirationBoundary() async {
        await harness.answer(resource.load(), text: "x")  // data at t=1000; the default expirationTime is 30 s
        harness.clock.now = 1029.999
        #expect(resource.isUpToDate)
        #expect(resource.loadIfNeeded() == nil)
        #expect(harness.network.sent.count == 1)
        harness.clock.now = 1030
        #expect(!resource.isUpToDate)
        #expect(resource.loadIfNeeded() != nil)
        #expect(harness.network.sent.count == 2)
    }

    @Test("A23 a configured expirationTime is honoured")
    func configuredExpiration() async {
        harness.service.configure { $0.expirationTime = 1 }
        await harness.answer(resource.load(), text: "x")
        harness.clock.now = 1000.5
        #expect(resource.loadIfNeeded() == nil)
        harness.clock.now = 1002
        #expect(resource.loadIfNeeded() != nil)
    }

    @Test("A25 freshness uses the later timestamp and the limit for the current condition")
    func freshnessUsesCurrentCondition() async {
        harness.service.configure {
            $0.expirationTime = 30
            $0.retryTime = 5
        }
        await harness.answer(resource.load(), text: "x")  // data at 1000
        harness.clock.now = 1020
        await harness.answer(resource.load(), status: 500)  // error at 1020
        harness.clock.now = 1024
        #expect(resource.isUpToDate)  // 4 s after the error, within retryTime
        harness.clock.now = 1026
        #expect(!resource.isUpToDate)  // 6 s after the error: retryTime applies, although data is 26 s old
    }

    @Test("A26 load(using:) makes another request's response update this resource and tell observers")
    func loadUsing() async {
        let observer = RecordingObserver()
        resource.addObserver(observer)
        let post = resource.request(.post)
        resource.load(using: post)
        await harness.answer(post, text: "posted")
        #expect(resource.text == "posted")
        #expect(observer.events == ["observerAdded", "requested", "newData(network)"])
    }

    @Test("A28 cancelLoadIfUnobserved does nothing while an observer remains")
    func cancelIfUnobservedKeepsObservedLoad() {
        let observer = RecordingObserver()
        resource.addObserver(observer)
        let request = resource.load()
        resource.cancelLoadIfUnobserved()
        #expect(request.state == .inProgress)
        resource.removeObservers(ownedBy: observer)
        resource.cancelLoadIfUnobserved()
        #expect(request.state == .completed)
        #expect(harness.network.cancelledCount == 1)
    }
}

@MainActor
@Suite("Delayed cancellation of unobserved loads", .checksLifetimes)
struct DelayedCancelTests {
    let harness = Harness()
    var resource: Resource { harness.service.resource("/a/b") }

    @Test("A29 an observer lost during the delay means cancel, at the end of the delay, then the callback")
    func lostDuringDelay() {
        let observer = RecordingObserver()
        resource.addObserver(observer)
        let request = resource.load()
        var callbacks = 0
        resource.cancelLoadIfUnobserved(afterDelay: 1) { callbacks += 1 }
        resource.removeObservers(ownedBy: observer)
        harness.scheduler.advance(by: .milliseconds(999))
        #expect(request.state == .inProgress)  // never before the delay
        #expect(callbacks == 0)
        harness.scheduler.advance(by: .milliseconds(1))
        #expect(request.state == .completed)
        #expect(callbacks == 1)
    }

    @Test("A29 an observer gained during the delay keeps the load, and the callback still runs")
    func gainedDuringDelay() {
        let request = resource.load()
        var callbacks = 0
        resource.cancelLoadIfUnobserved(afterDelay: 0.5) { callbacks += 1 }
        let observer = RecordingObserver()
        resource.addObserver(observer)
        harness.scheduler.advance(by: .seconds(1))
        #expect(request.state == .inProgress)
        #expect(callbacks == 1)
    }

    @Test("A29 an infinite delay does not trap and never ends within reach; a NaN delay ends at the end of the turn")
    func unreachableAndMeaninglessDelays() {
        let request = resource.load()
        var callbacks = 0
        resource.cancelLoadIfUnobserved(afterDelay: .infinity) { callbacks += 1 }
        harness.scheduler.advance(by: .seconds(1_000_000))
        #expect(request.state == .inProgress)
        #expect(callbacks == 0)
        resource.cancelLoadIfUnobserved(afterDelay: .nan) { callbacks += 1 }
        harness.scheduler.advance()
        #expect(request.state == .completed)
        #expect(callbacks == 1)
    }
}
