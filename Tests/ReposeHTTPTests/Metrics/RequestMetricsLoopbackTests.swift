import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// Request metrics over real HTTP: `URLSessionProvider` and the loopback server.
@MainActor
@Suite("X1 request metrics over real HTTP", .checksLifetimes)
final class RequestMetricsLoopbackTests {
    final class Heard {
        var metrics: [RequestMetrics] = []
    }

    let fixture: IntegrationFixture
    let heard = Heard()
    var service: Service { fixture.service }

    init() async throws {
        fixture = try await IntegrationFixture()
        let heard = heard
        fixture.service.configure { $0.monitorRequests { heard.metrics.append($0) } }
    }

    /// Runs `request` to completion and returns what the monitor heard of it.
    func measured(_ request: Request) async throws -> RequestMetrics {
        let count = heard.metrics.count
        try #require(await fixture.completion(of: request) != nil)
        try #require(heard.metrics.count == count + 1)
        return try #require(heard.metrics.last)
    }

    @Test("X1 a body's bytes and its first byte are measured through URLSession, in order of time")
    func bytesAndFirstByte() async throws {
        let metrics = try await measured(service.resource("/bytes/300000").load())
        #expect(metrics.statusCode == 200 && metrics.source == .network)
        #expect(metrics.bytesReceived == 300_000)
        let firstByte = try #require(metrics.firstByte)
        #expect(metrics.started <= firstByte && firstByte <= metrics.finished)
        #expect(metrics.attempts == 1)
    }

    @Test("X1 bytes sent are the request body's")
    func bytesSent() async throws {
        let body = Data(repeating: 7, count: 5000)
        let metrics = try await measured(
            service.resource("/discard").request(.post, data: body, contentType: "application/octet-stream"))
        #expect(metrics.bytesSent == 5000)
        #expect(metrics.method == .post)
    }

    @Test("X1 a revalidation the server confirms is heard as notModified, with no body")
    func notModified() async throws {
        let resource = service.resource("/etag/v1")
        _ = try await measured(resource.load())
        let metrics = try await measured(resource.load())
        #expect(metrics.statusCode == 304 && metrics.source == .notModified)
        #expect(metrics.bytesReceived == 0)
    }

    @Test("X1 a followed redirect is measured as one request, with the final response's status and bytes")
    func redirect() async throws {
        let metrics = try await measured(service.resource("/redirect").withParam("to", "/bytes/1234").load())
        #expect(metrics.statusCode == 200 && metrics.bytesReceived == 1234)
        #expect(metrics.url.path == "/redirect")
        #expect(metrics.redirects == 1)
    }

    @Test("X1 the redirects a request followed are counted: two in a row, none for a direct answer")
    func redirectCount() async throws {
        let twice = service.resource("/redirect").withParam("to", "/redirect?to=/bytes/10")
        let followed = try await measured(twice.load())
        #expect(followed.statusCode == 200 && followed.bytesReceived == 10)
        #expect(followed.redirects == 2)
        let direct = try await measured(service.resource("/bytes/10").load())
        #expect(direct.redirects == 0)
    }

    @Test("X1 a download counts the redirects it followed on its server")
    func downloadRedirects() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "repose-metrics-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let resource = service.resource("/redirect").withParam("to", "/bytes/2000")
        let metrics = try await measured(resource.download(to: folder.appendingPathComponent("file.bin")))
        #expect(metrics.statusCode == 200 && metrics.bytesReceived == 2000)
        #expect(metrics.redirects == 1)
    }

    @Test("X1 a download to a file is measured too: its bytes arrive in the file, and in the metrics")
    func download() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "repose-metrics-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("file.bin")
        let metrics = try await measured(service.resource("/bytes/200000").download(to: destination))
        #expect(metrics.statusCode == 200 && metrics.source == .network)
        #expect(metrics.bytesReceived == 200_000)
        #expect(metrics.firstByte != nil)
    }
}
