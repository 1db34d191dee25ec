import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// What the server receives is the URL a resource shows: the loopback server's `/echo/…` route reports the request
/// path exactly as it arrived, before any decoding.
@MainActor
@Suite("Resource URLs on the wire", .checksLifetimes)
final class URLOnTheWireIntegrationTests {
    let fixture: IntegrationFixture
    /// A service whose base is the echo route, so that every resource under it is echoed.
    let service: Service

    init() async throws {
        fixture = try await IntegrationFixture()
        service = Service(
            baseURL: "http://127.0.0.1:\(fixture.server.port)/echo/", options: .init(networking: fixture.provider))
    }

    /// The path the server received for `resource`, or nil (with an issue recorded) if the load failed.
    private func receivedPath(
        _ resource: Resource, sourceLocation: SourceLocation = #_sourceLocation
    ) async
        -> String?
    {
        guard let info = await fixture.completion(of: resource.load(), sourceLocation: sourceLocation) else {
            return nil
        }
        guard case .success(let entity) = info.response else {
            Issue.record("the echo request failed: \(info.response)", sourceLocation: sourceLocation)
            return nil
        }
        guard let echo = entity.content as? [String: Any] else {
            Issue.record("the echo route did not answer JSON", sourceLocation: sourceLocation)
            return nil
        }
        return echo["path"] as? String
    }

    private func shownPath(_ resource: Resource) -> String {
        URLBuilding.Parts(splitting: resource.url.absoluteString).path
    }

    @Test(
        "C3 D5 dots that are not whole segments reach the server as the path the resource shows",
        arguments: ["...", ".x/x./..x", "%2E%2E/x"])
    func dotsOnTheWire(path: String) async throws {
        let viaPath = service.resource(path)
        let viaChild = service.resource("base").child(path)
        for resource in [viaPath, viaChild] {
            #expect(shownPath(resource).hasPrefix("/echo/"))
            #expect(await receivedPath(resource) == shownPath(resource))
        }
    }

    @Test("a segment from user input reaches the server as one segment under its parent")
    func segmentOnTheWire() async throws {
        let users = service.resource("users")
        for input in ["...", "../admin", "a/b", "?q=1", "#top", "%2E%2E", "ü ;="] {
            let user = users.child(segment: input)
            let received = await receivedPath(user)
            #expect(received == shownPath(user))
            #expect(received?.hasPrefix("/echo/users/") == true)
            #expect(received?.dropFirst("/echo/users/".count).contains("/") == false)
        }
    }

    @Test("an absolute URL with dot segments is the URL the server receives")
    func absoluteURLOnTheWire() async throws {
        let resource = service.resource(absoluteURL: "http://127.0.0.1:\(fixture.server.port)/echo/a/./b/../c")
        #expect(resource.url.absoluteString == "http://127.0.0.1:\(fixture.server.port)/echo/a/c")
        #expect(await receivedPath(resource) == "/echo/a/c")
    }
}
