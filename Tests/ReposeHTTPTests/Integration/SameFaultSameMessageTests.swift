import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@MainActor
@Suite("T12 the same fault gets the same message, whichever request met it", .checksLifetimes)
final class SameFaultSameMessageTests {
    let fixture: IntegrationFixture

    init() async throws {
        fixture = try await IntegrationFixture()
    }

    /// The kinds of request a fault may meet.
    enum Kind: String, CaseIterable {
        case load, write, download, eventStream
    }

    /// Faults, with what every kind of request reports for them.
    enum Fault: String, CaseIterable, CustomTestStringConvertible {
        /// The server announced a body and closed the connection in the middle of it.
        case killedMidBody
        /// Nothing listens at the address.
        case refused

        var code: URLError.Code { self == .killedMidBody ? .networkConnectionLost : .cannotConnectToHost }
        var message: String {
            self == .killedMidBody ? "The connection to the server was lost." : "Could not connect to the server."
        }
        var testDescription: String { rawValue }
    }

    @Test(
        "T12 a server killed mid-body, and a refused connection, read the same for a load, a write, a download and an event stream",
        arguments: Fault.allCases)
    func sameCauseAndMessage(_ fault: Fault) async throws {
        let service: Service
        switch fault {
        case .killedMidBody:
            service = fixture.service
        case .refused:
            let closed = try await LoopbackServer()
            closed.stop()
            await closed.exited()
            service = Service(baseURL: closed.url("/").absoluteString, options: .init(networking: fixture.provider))
            LifetimeCheck.track(service)
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("T12-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for kind in Kind.allCases {
            let error = try #require(await error(of: kind, at: service, files: folder), "\(kind)")
            #expect((error.cause as? URLError)?.code == fault.code, "\(kind): \(String(describing: error.cause))")
            #expect(error.userMessage == fault.message, "\(kind)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)  // no partial file
    }

    /// The error a request of `kind` to `/drop/events` (a body announced, then the connection closed) ends with.
    func error(of kind: Kind, at service: Service, files: URL) async -> RequestError? {
        let path = "/drop/events"
        switch kind {
        case .load:
            return await fixture.completion(of: service.resource(path).load())?.response.error
        case .write:
            return await fixture.completion(of: service.resource(path).request(.post, text: "note"))?.response.error
        case .download:
            let request = service.resource(path).download(to: files.appendingPathComponent("file"))
            return await fixture.completion(of: request)?.response.error
        case .eventStream:
            let stream = service.eventStream(path)
            let watching = stream.connection.observe { _ in }
            defer { watching.cancel() }
            _ = await eventually { stream.connection.value.error != nil }
            return stream.connection.value.error
        }
    }
}
