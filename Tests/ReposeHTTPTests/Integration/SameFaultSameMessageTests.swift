import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@MainActor
@Suite("T12 the same fault gets the same message, whichever request met it", .checksLifetimes)
final class SameFaultSameMessageTests {
    let fixture: IntegrationFixture
    /// The services of ``service(of:)``, held as an app holds its service: an event stream ends with its service.
    var services: [Service] = []

    init() async throws {
        fixture = try await IntegrationFixture()
    }

    /// The kinds of request a fault may meet.
    enum Kind: String, CaseIterable {
        case load, write, download, eventStream
    }

    /// Faults, with what every kind of request reports for them.
    enum Fault: String, CaseIterable, CustomTestStringConvertible {
        /// The server's process is killed while a body it announced is coming.
        case killedMidBody
        /// The server announced a body and closed the connection in the middle of it.
        case closedMidBody
        /// Nothing listens at the address.
        case refused

        var code: URLError.Code { self == .refused ? .cannotConnectToHost : .networkConnectionLost }
        var message: String {
            self == .refused ? "Could not connect to the server." : "The connection to the server was lost."
        }
        var testDescription: String { rawValue }
    }

    @Test(
        "T12 a server killed or closing mid-body, and a refused connection, read the same for a load, a write, a download and an event stream",
        .hangLimit, arguments: Fault.allCases)
    func sameCauseAndMessage(_ fault: Fault) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("T12-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for kind in Kind.allCases {
            let error = try #require(await error(of: kind, meeting: fault, files: folder), "\(kind)")
            #expect((error.cause as? URLError)?.code == fault.code, "\(kind): \(String(describing: error.cause))")
            #expect(error.userMessage == fault.message, "\(kind)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)  // no partial file
    }

    /// The error a request of `kind` ends with when it meets `fault`.
    func error(of kind: Kind, meeting fault: Fault, files: URL) async throws -> RequestError? {
        switch fault {
        case .closedMidBody:
            // A body announced, part of it sent, then the connection closed.
            return await error(of: kind, to: fixture.service.resource("/drop/events"), files: files)
        case .refused:
            let closed = try await LoopbackServer()
            closed.stop()
            await closed.exited()
            return await error(of: kind, to: service(of: closed).resource("/echo"), files: files)
        case .killedMidBody:
            let doomed = try await LoopbackServer()  // one per request: each kill ends it
            let resource = service(of: doomed).resource("/hang").withParams(["at": "body", "type": "events"])
            return await error(of: kind, to: resource, files: files) {
                await doomed.waitForMark("hang body")
                doomed.stop()
                await doomed.exited()
            }
        }
    }

    /// A service like the fixture's, on the same provider, over `server`.
    func service(of server: LoopbackServer) -> Service {
        let service = Service(baseURL: server.url("/").absoluteString, options: .init(networking: fixture.provider))
        LifetimeCheck.track(service)
        services.append(service)
        return service
    }

    /// The error a request of `kind` to `resource` ends with, `meanwhile` run once it has been sent.
    func error(
        of kind: Kind, to resource: Resource, files: URL, meanwhile: () async -> Void = {}
    ) async -> RequestError? {
        let request: Request
        switch kind {
        case .load:
            request = resource.load()
        case .write:
            request = resource.request(.post, text: "note")
        case .download:
            request = resource.download(to: files.appendingPathComponent("file"))
        case .eventStream:
            // No reconnection while the test looks: the first error is the one this fault made.
            let stream = EventStream(resource: resource, retry: .seconds(600))
            var first: RequestError?
            let watching = stream.connection.observe { first = first ?? $0.error }
            defer { watching.cancel() }
            await meanwhile()
            _ = await eventually { first != nil }
            return first
        }
        await meanwhile()
        return await fixture.completion(of: request)?.response.error
    }
}
