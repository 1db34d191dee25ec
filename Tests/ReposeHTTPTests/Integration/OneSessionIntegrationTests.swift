import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@MainActor
@Suite("One session for every request, and the app's code off its queue (U1, U6)", .checksLifetimes)
final class OneSessionIntegrationTests {
    let fixture: IntegrationFixture
    var service: Service { fixture.service }

    init() async throws {
        fixture = try await IntegrationFixture()
    }

    @Test("U6 a slow model on one request does not delay another request's bytes", .hangLimit)
    func slowModelDelaysNoOtherBytes() async throws {
        let model = SlowModel()
        defer { model.release() }  // however the test ends: the model holds a thread of the process
        service.configure("/bytes/4096") { $0.pipeline[.model].add(model) }
        let slow = service.resource("/bytes/4096").load()
        try #require(await model.entered(), "the model runs, and holds its thread")
        // Meanwhile another transfer of the same session: its whole body arrives, though the model still holds.
        let other = RecordingTransfer.send(URLRequest(url: fixture.server.url("/bytes/100000")), to: fixture.provider)
        #expect(await other.response()?.body.count == 100_000)
        #expect(model.isHolding)
        model.release()
        let info = try #require(await fixture.completion(of: slow))
        #expect(info.response.error == nil)
    }

    @Test(
        "U1 downloads share the session's connections to a host: twenty at once hold six, and each lands whole",
        .hangLimit)
    func downloadsShareConnections() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("one-session-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = service.resource("/drip").withParams(["bytes": "2000", "chunks": "2", "hold": "cap"])
        let downloads = (0..<20).map { source.download(to: folder.appendingPathComponent("\($0)")) }
        // Six reach the server and wait there; the other fourteen wait for a connection of the six.
        try #require(await fixture.server.waitForMark("count held cap 6"))
        let elsewhere = URLSessionProvider()  // a session of its own, to look without waiting for one of the six
        let counts = try #require(await connections(through: elsewhere))
        #expect(counts["open"] == 7, "six downloads and this question: \(counts)")
        _ = await RecordingTransfer.send(URLRequest(url: fixture.server.url("/store-release/cap")), to: elsewhere)
            .response()
        for download in downloads {
            #expect(await fixture.completion(of: download)?.response.error == nil)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 20)
        #expect(try #require(await connections(through: elsewhere))["peak"] ?? .max <= 7)
    }

    @Test("U1 W1 a download and an event stream follow a redirect to another origin as a load does, without secrets")
    func redirectsFollowOnePolicy() async throws {
        #if os(Linux)
        let other = try await LoopbackServer(host: "127.0.0.2")  // loopback; elsewhere another port is another origin
        #else
        let other = try await LoopbackServer()
        #endif
        service.configure { $0.headers["Authorization"] = "Bearer secret" }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("redirect-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let redirect = service.resource("/redirect").withParam("to", other.url("/echo").absoluteString)

        let file = folder.appendingPathComponent("echo.json")
        let info = try #require(await fixture.completion(of: redirect.download(to: file)))
        #expect(info.response.error == nil, "\(info.response.error?.userMessage ?? "")")
        let echo = try JSONDecoder().decode(Echo.self, from: Data(contentsOf: file))
        #expect(echo.path == "/echo" && echo.headers["authorization"] == nil)

        // A stream whose URL has a query, made from its resource: `eventStream(_:)` takes a path.
        let target = redirect.withParam("to", other.url("/drop/events").absoluteString)
        let events = EventStream(resource: target, retry: .seconds(60))
        let watching = events.connection.observe { _ in }
        defer { watching.cancel() }
        #expect(await eventually { events.connection.value.isOpen || events.connection.value.error != nil })
        // Opened at the other origin (its body then ends early): not refused with the redirect's "Found".
        #expect(events.connection.value.error?.httpStatusCode == nil)
    }

    /// The server's count of its clients' connections, asked through `provider`.
    func connections(through provider: URLSessionProvider) async -> [String: Int]? {
        let recording = RecordingTransfer.send(URLRequest(url: fixture.server.url("/connections")), to: provider)
        guard let body = await recording.response()?.body else { return nil }
        return try? JSONDecoder().decode([String: Int].self, from: body)
    }
}

/// A model that takes long: it holds its thread until released, as a slow `Decodable` model or a transformer that
/// waits on something would. Release it however the test ends (a second release does nothing more).
final class SlowModel: ResponseTransformer, @unchecked Sendable {
    // Safe: the semaphores are thread-safe; `holding` and `released` are only touched under `lock`.
    private let started = DispatchSemaphore(value: 0)
    private let gate = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var holding = false
    private var released = false

    var isHolding: Bool { lock.withLock { holding } }

    func process(_ response: Response) -> Response {
        lock.withLock { holding = true }
        started.signal()
        gate.wait()
        lock.withLock { holding = false }
        return response
    }

    /// Whether the model started within ``Patience/wait``.
    func entered() async -> Bool {
        let seconds = Int(Patience.wait.components.seconds)
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: self.started.wait(timeout: .now() + .seconds(seconds)) == .success)
            }
        }
    }

    /// Lets the model's call return, once; later calls do nothing.
    func release() {
        let isFirst = lock.withLock { () -> Bool in
            defer { released = true }
            return !released
        }
        if isFirst { gate.signal() }
    }
}
