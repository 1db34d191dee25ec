import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// The same load cancelled at every stage of its exchange with a real server: each time the request completes at
/// once as cancelled, observers hear `requestCancelled` once, and the resource keeps its earlier data.
@MainActor
@Suite("Cancelling a load at every stage over real HTTP", .checksLifetimes)
final class NetworkCancellationIntegrationTests {
    let fixture: IntegrationFixture
    var service: Service { fixture.service }

    init() async throws {
        fixture = try await IntegrationFixture()
    }

    /// Where the exchange is when the load is cancelled.
    enum Stage: String, Sendable, CaseIterable {
        /// Sent, but nothing has come back: the connection may not even be open yet.
        case connecting
        /// The server has the request and has not answered.
        case waitingForHeaders
        /// The server sent the headers and none of the body.
        case afterHeaders
        /// Part of the body has arrived.
        case midBody
    }

    @Test("E7 B13 a load cancelled before it starts keeps the earlier data and sends nothing")
    func beforeStart() async throws {
        let (resource, observer, earlier) = try await loadedResource()
        service.configure {
            $0.decorateRequests { _, request in
                request.cancel()
                return request
            }
        }

        let request = resource.load()
        #expect(request.state == .completed)
        #expect(fixture.provider.delegate?.activeTransferCount == 0)
        // The resource hears of the outcome asynchronously, like every hook.
        try #require(await fixture.completion(of: request) != nil)

        try expectCancelled(request, resource, observer, keeping: earlier)
    }

    @Test(
        "E11 B13 P1 a load cancelled at any stage completes at once and keeps the earlier data",
        arguments: Stage.allCases)
    func cancelAt(stage: Stage) async throws {
        let (resource, observer, earlier) = try await loadedResource()
        let at = stage == .midBody ? "body" : stage == .afterHeaders ? "headers" : "request"
        let request = resource.load(using: service.resource("/hang").withParam("at", at).request(.get))

        switch stage {
        case .connecting:
            break
        case .waitingForHeaders, .afterHeaders:
            try #require(await fixture.server.waitForMark("hang \(at)"))
        case .midBody:
            try #require(await fixture.firstProgress(of: request) != nil)
        }
        #expect(resource.isLoading)
        request.cancel()

        #expect(request.state == .completed)
        #expect(request.progress == 1)
        try expectCancelled(request, resource, observer, keeping: earlier)
        // Nothing the network delivers after the cancellation reaches the resource.
        let later = service.resource("/echo").withParam("after", "cancel")
        try #require(await fixture.completion(of: later.load()) != nil)
        #expect(observer.events.count == 5)
    }

    /// A resource that loaded `/echo` once, observed by a recording observer.
    func loadedResource() async throws -> (Resource, RecordingObserver, Entity<Any>) {
        let resource = service.resource("/echo")
        let observer = RecordingObserver()
        resource.addObserver(observer)
        try #require(await fixture.completion(of: resource.load()) != nil)
        return (resource, observer, try #require(resource.latestData))
    }

    func expectCancelled(
        _ request: Request, _ resource: Resource, _ observer: RecordingObserver, keeping earlier: Entity<Any>,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let error = try #require(request.completedResponse?.response.error, sourceLocation: sourceLocation)
        #expect(error.isCancellation, sourceLocation: sourceLocation)
        #expect(error.userMessage == "The request was cancelled.", sourceLocation: sourceLocation)
        #expect(!resource.isLoading, sourceLocation: sourceLocation)
        #expect(resource.latestError == nil, sourceLocation: sourceLocation)
        #expect(resource.latestData?.timestamp == earlier.timestamp, sourceLocation: sourceLocation)
        #expect(
            observer.events == ["observerAdded", "requested", "newData(network)", "requested", "requestCancelled"],
            sourceLocation: sourceLocation)
    }
}
