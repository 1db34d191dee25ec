import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("URLSessionProvider transport failures", .hangLimit)
final class URLSessionProviderFailureTests {
    let server: LoopbackServer
    let provider = URLSessionProvider()

    init() async throws {
        server = try await LoopbackServer()
    }

    @Test("A13 a port with nothing listening fails with a connection error")
    func connectionRefused() async throws {
        let closed = try await LoopbackServer()
        let url = closed.url("/echo")
        closed.stop()
        await closed.exited()
        let recording = send(URLRequest(url: url))
        let error = try #require(await recording.error())
        #expect((error as? URLError)?.code == .cannotConnectToHost)
        #expect(provider.delegate?.activeTransferCount == 0)
    }

    @Test("A13 a URL scheme URLSession cannot load fails with an error instead of hanging")
    func unsupportedScheme() async throws {
        let recording = send(URLRequest(url: try #require(URL(string: "gopher://127.0.0.1/x"))))
        let error = try #require(await recording.error())
        #expect((error as? URLError)?.code == .unsupportedURL)
        #expect(provider.delegate?.activeTransferCount == 0)
    }

    @Test("A13 a connection dropped in the middle of the body fails instead of delivering half a body")
    func droppedMidBody() async throws {
        let recording = send(URLRequest(url: server.url("/drop?announce=100000&send=1000")))
        let error = try #require(await recording.error())
        #expect(error is URLError)
        #expect(recording.completionCount == 1)
        #expect(provider.delegate?.activeTransferCount == 0)
    }

    @Test("cancelling a response in mid-flight completes once with a cancellation and frees the task's state")
    func cancelMidFlight() async throws {
        let recording = RecordingTransfer()
        let task = provider.startTransfer(URLRequest(url: server.url("/hang?at=body")), into: recording)
        try #require(await recording.firstBytesReceived())
        task.cancel()
        task.cancel()
        let error = try #require(await recording.error())
        #expect((error as? URLError)?.code == .cancelled)
        #expect(recording.completionCount == 1)
        #expect(provider.delegate?.activeTransferCount == 0)
    }

    @Test("cancelling a finished request does nothing")
    func cancelAfterCompletion() async throws {
        let recording = RecordingTransfer()
        let task = provider.startTransfer(URLRequest(url: server.url("/echo")), into: recording)
        let response = try #require(await recording.response())
        task.cancel()
        #expect(response.statusCode == 200)
        #expect(recording.completionCount == 1)
    }

    @Test("A13 a server slower than the request's timeout fails with a timeout")
    func timeout() async throws {
        var request = URLRequest(url: server.url("/hang"))
        // Whole seconds: swift-corelibs-foundation truncates the interval, and 0 would time out at once.
        request.timeoutInterval = 1
        let error = try #require(await send(request).error())
        #expect((error as? URLError)?.code == .timedOut)
        #expect(provider.delegate?.activeTransferCount == 0)
    }

    func send(_ request: URLRequest) -> RecordingTransfer {
        let recording = RecordingTransfer()
        _ = provider.startTransfer(request, into: recording)
        return recording
    }
}
