import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Network faults against a real server, through `URLSessionProvider`, a `Service` and a `Resource` that loaded
/// once before: each ends with the earlier data kept, one `error` event, and a message fit for display.
@MainActor
@Suite("Network faults over real HTTP", .checksLifetimes)
final class NetworkFaultIntegrationTests {
    let fixture: IntegrationFixture
    var service: Service { fixture.service }

    init() async throws {
        fixture = try await IntegrationFixture()
    }

    /// One way the network can fail a load, and what the user reads then.
    struct Fault: Sendable, CustomTestStringConvertible {
        var name: String
        /// The path on the loopback server that fails this way.
        var path: String
        var userMessage: String
        /// Whether the request times out after one second: the server never answers it.
        var timesOut = false

        var testDescription: String { name }
    }

    nonisolated static let faults = [
        Fault(
            name: "a reset in the middle of the headers", path: "/reset?at=headers",
            userMessage: "The connection to the server was lost."),
        Fault(
            name: "a reset in the middle of the body", path: "/reset?at=body",
            userMessage: "The connection to the server was lost."),
        Fault(
            name: "a connection closed in the middle of the body", path: "/drop?announce=100000&send=1000",
            userMessage: "The connection to the server was lost."),
        Fault(
            name: "a server that stalls past the configured timeout", path: "/hang",
            userMessage: "The server took too long to respond.", timesOut: true),
        Fault(
            name: "a response header of 1 MB", path: "/header?bytes=1000000",
            userMessage: "The server's response could not be read."),
        Fault(
            name: "a redirect loop", path: "/redirect/loop",
            userMessage: "The server redirected this request too many times."),
        Fault(
            name: "a gzip body that inflates past the default size limit", path: "/gzip?size=\(64 * 1024 * 1024)",
            userMessage: "The server's response was too large."),
    ]

    @Test("A13 a fault keeps the earlier data, tells observers once and explains itself", arguments: faults)
    func faultAfterSuccess(fault: Fault) async throws {
        if fault.timesOut {
            // Whole seconds: swift-corelibs-foundation truncates the interval, and 0 would time out at once. Only the
            // stalling path: under a sanitizer, with the whole suite running, the earlier load can take a second too.
            // The server holds `/hang` until the client goes, so the timeout is the only way the load can end.
            service.configure("/hang") { $0.mutateRequests { $0.timeoutInterval = 1 } }
        }
        let error = try await failAfterSuccess(loading: fixture.server.url(fault.path))
        #expect(error.userMessage == fault.userMessage)
        #expect(error.httpStatusCode == nil)
        #expect(error.cause != nil)
    }

    @Test("A13 a refused connection keeps the earlier data and says the server could not be reached")
    func connectionRefused() async throws {
        let closed = try await LoopbackServer()
        let url = closed.url("/echo")
        closed.stop()
        await closed.exited()
        let error = try await failAfterSuccess(loading: url)
        #expect(error.userMessage == "Could not connect to the server.")
        #expect((error.cause as? URLError)?.code == .cannotConnectToHost)
    }

    @Test("a configured size limit applies by URL pattern and fails a larger body with ResponseTooLarge")
    func configuredSizeLimit() async throws {
        service.configure("/bytes/*") { $0.maximumResponseSize = 100_000 }
        let error = try await failAfterSuccess(loading: fixture.server.url("/bytes/100001"))
        #expect(error.userMessage == "The server's response was too large.")
        #expect((error.cause as? RequestError.Cause.ResponseTooLarge)?.maximumSize == 100_000)

        let fits = service.resource("/bytes/100000")
        try #require(await fixture.completion(of: fits.load()) != nil)
        #expect((fits.latestData?.content as? Data)?.count == 100_000)
        // The limit belongs to the pattern: a larger body elsewhere still loads.
        let elsewhere = service.resource("/chunked/200000")
        try #require(await fixture.completion(of: elsewhere.load()) != nil)
        #expect((elsewhere.latestData?.content as? Data)?.count == 200_000)
    }

    @Test("a 10 MB body loads under the default size limit")
    func tenMegabytes() async throws {
        let resource = service.resource("/bytes/\(10 * 1024 * 1024)")
        try #require(await fixture.completion(of: resource.load()) != nil)
        #expect(resource.latestError == nil)
        #expect((resource.latestData?.content as? Data)?.count == 10 * 1024 * 1024)
    }

    @Test(
        "A14 an error status with an empty body keeps the earlier data and reports the status",
        arguments: [400, 404, 500, 503])
    func emptyErrorStatus(status: Int) async throws {
        let error = try await failAfterSuccess(loading: fixture.server.url("/status/\(status)?body=none"))
        #expect(error.httpStatusCode == status)
        #expect(error.userMessage == HTTPStatus.userMessage(for: status))
        #expect(error.userMessage.isEmpty == false)
    }

    @Test(
        "E2 a success status with an empty body, or a redirect without a Location, is new, empty data",
        arguments: [200, 201, 204, 301])
    func emptySuccessStatus(status: Int) async throws {
        let resource = service.resource("/echo")
        let observer = RecordingObserver()
        resource.addObserver(observer)
        try #require(await fixture.completion(of: resource.load()) != nil)

        let empty = service.resource(absoluteURL: fixture.server.url("/status/\(status)?body=none")).request(.get)
        try #require(await fixture.completion(of: resource.load(using: empty)) != nil)

        #expect(resource.latestError == nil)
        #expect(resource.latestData?.content as? Data == Data())
        #expect(
            observer.events == ["observerAdded", "requested", "newData(network)", "requested", "newData(network)"])
    }

    /// Loads `/echo` into a resource, then loads `url` into the same resource, and checks that the second load
    /// failed the documented way: earlier data kept, observers told once, a message fit for display. Returns its
    /// error.
    func failAfterSuccess(
        loading url: URL, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> RequestError {
        let resource = service.resource("/echo")
        let observer = RecordingObserver()
        resource.addObserver(observer)
        try #require(await fixture.completion(of: resource.load()) != nil, sourceLocation: sourceLocation)
        let earlier = try #require(resource.latestData, sourceLocation: sourceLocation)

        let request = resource.load(using: service.resource(absoluteURL: url).request(.get))
        try #require(await fixture.completion(of: request) != nil, sourceLocation: sourceLocation)

        let error = try #require(resource.latestError, sourceLocation: sourceLocation)
        #expect(resource.latestData?.timestamp == earlier.timestamp, sourceLocation: sourceLocation)
        #expect(EchoedRequest(resource.latestData)?.path == "/echo", sourceLocation: sourceLocation)
        #expect(
            observer.events == ["observerAdded", "requested", "newData(network)", "requested", "error"],
            sourceLocation: sourceLocation)
        #expect(!resource.isLoading, sourceLocation: sourceLocation)
        #expect(request.progress == 1, sourceLocation: sourceLocation)
        #expect(!error.isCancellation, sourceLocation: sourceLocation)
        #expect(
            !error.userMessage.contains("ErrorDomain") && !error.userMessage.contains("error -"),
            sourceLocation: sourceLocation)
        return error
    }
}
