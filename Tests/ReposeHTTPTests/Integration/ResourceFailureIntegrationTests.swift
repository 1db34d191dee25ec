import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@MainActor
@Suite("Resource transport failures over real HTTP", .checksLifetimes)
final class ResourceFailureIntegrationTests {
    let fixture: IntegrationFixture
    var service: Service { fixture.service }

    init() async throws {
        fixture = try await IntegrationFixture()
    }

    @Test("A13 A17 B14 P1 a refused connection fails the load with the URLError as its cause")
    func connectionRefused() async throws {
        let closed = try await LoopbackServer()
        let url = closed.url("/echo")
        closed.stop()
        await closed.exited()
        let resource = service.resource(absoluteURL: url)
        let observer = RecordingObserver()
        resource.addObserver(observer)

        let request = resource.load()
        try #require(await fixture.completion(of: request) != nil)

        let error = try #require(resource.latestError)
        let cause = try #require(error.cause as? URLError)
        #expect(cause.code == .cannotConnectToHost)
        #expect(error.httpStatusCode == nil)
        #expect(isFitForDisplay(error.userMessage))
        #expect(resource.latestData == nil)
        #expect(observer.events == ["observerAdded", "requested", "error"])
        #expect(request.progress == 1)
    }

    @Test("A13 a connection dropped in the middle of the body fails the load instead of keeping half a body")
    func droppedMidBody() async throws {
        let resource = service.resource("/drop").withParams(["announce": "100000", "send": "1000"])
        let observer = RecordingObserver()
        resource.addObserver(observer)
        try #require(await fixture.completion(of: resource.load()) != nil)

        let error = try #require(resource.latestError)
        #expect(error.cause is URLError)
        #expect(isFitForDisplay(error.userMessage))
        #expect(error.httpStatusCode == nil)
        #expect(resource.latestData == nil)
        #expect(observer.events == ["observerAdded", "requested", "error"])
    }

    @Test("E11 B13 P1 cancelling a load whose body is half there completes it at once as cancelled")
    func cancelMidFlight() async throws {
        let resource = service.resource("/hang").withParam("at", "body")
        let observer = RecordingObserver()
        resource.addObserver(observer)
        let request = resource.load()
        let progress = try #require(await fixture.firstProgress(of: request))
        #expect(progress > 0 && progress < 1)
        #expect(resource.isLoading)

        request.cancel()

        #expect(request.state == .completed)
        #expect(request.progress == 1)
        #expect(!resource.isLoading)
        #expect(observer.events == ["observerAdded", "requested", "requestCancelled"])
        let response = try #require(request.completedResponse).response
        #expect(response.isCancellation)
        #expect(response.error?.cause is RequestError.Cause.RequestCancelled)
        // A cancellation is not a failure of the resource: no error, no data from the half body.
        #expect(resource.latestError == nil)
        #expect(resource.latestData == nil)
    }

    @Test("E11 cancelling the task that awaits a load's response cancels the load")
    func taskCancellationCancelsTheLoad() async throws {
        let resource = service.resource("/hang").withParam("at", "body")
        let observer = RecordingObserver()
        resource.addObserver(observer)
        let request = resource.load()
        let waiting = Task { await request.response.isCancellation }
        try #require(await fixture.firstProgress(of: request) != nil)

        waiting.cancel()

        #expect(await waiting.value)
        #expect(request.state == .completed)
        #expect(!resource.isLoading)
        #expect(observer.events == ["observerAdded", "requested", "requestCancelled"])
    }

    @Test("[intended failure] a bounded wait that runs out records an issue, returns nil, and cancels the request")
    func boundedWaitRunsOut() async throws {
        let request = service.resource("/hang").load()
        var info: ResponseInfo?
        await withKnownIssue {
            info = await fixture.completion(of: request, within: .milliseconds(100))
        } matching: { issue in
            issue.mentions("timed out after", "waiting for the response to")
        }
        #expect(info == nil)
        let cancelled = try #require(await fixture.completion(of: request))
        #expect(cancelled.response.isCancellation)
    }

    @Test("A36 A38 wipe cancels a load in flight and clears data and error")
    func wipeCancelsInFlight() async throws {
        let resource = service.resource("/hang")  // answered never: the wipe always finds the load in flight
        resource.overrideLocalContent(with: Data("old".utf8))
        let observer = RecordingObserver()
        resource.addObserver(observer)
        let request = resource.load()

        resource.wipe()

        #expect(request.state == .completed)
        #expect(request.completedResponse?.response.isCancellation == true)
        #expect(resource.loadRequests.isEmpty && resource.allRequests.isEmpty)
        #expect(resource.latestData == nil && resource.latestError == nil)
        #expect(observer.events == ["observerAdded", "requested", "requestCancelled", "newData(wipe)"])
    }

    @Test("A13 a server slower than the configured timeout fails the load with a timeout")
    func timeout() async throws {
        // Whole seconds: swift-corelibs-foundation truncates the interval, and 0 would time out at once.
        service.configure { $0.mutateRequests { $0.timeoutInterval = 1 } }
        let resource = service.resource("/hang")
        let request = resource.load()
        try #require(await fixture.completion(of: request) != nil)

        let error = try #require(resource.latestError)
        #expect((error.cause as? URLError)?.code == .timedOut)
        #expect(isFitForDisplay(error.userMessage))
        #expect(error.httpStatusCode == nil)
        #expect(resource.latestData == nil)
        #expect(request.progress == 1)
    }

    @Test("A13 after a failure a later load that reaches the server succeeds and clears the error")
    func recoveryAfterFailure() async throws {
        service.configure { $0.mutateRequests { $0.timeoutInterval = 1 } }
        let resource = service.resource("/hang")
        try #require(await fixture.completion(of: resource.load()) != nil)
        #expect(resource.latestError != nil)

        // The same resource, pointed at a fast answer by a request that loads into it.
        let fast = service.resource("/echo").request(.get)
        try #require(await fixture.completion(of: resource.load(using: fast)) != nil)
        #expect(resource.latestError == nil)
        #expect(EchoedRequest(resource.latestData)?.path == "/echo")
    }

    /// Whether a message reads as a sentence for users, not as Foundation's stand-in for errors without a
    /// description ("The operation could not be completed. (NSURLErrorDomain error -1004.)").
    func isFitForDisplay(_ message: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let fit = !message.isEmpty && !message.contains("ErrorDomain") && !message.contains("error -")
        if !fit { Issue.record("not fit for display: \(message)", sourceLocation: sourceLocation) }
        return fit
    }
}
