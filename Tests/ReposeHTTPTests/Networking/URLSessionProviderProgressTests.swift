import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("URLSessionProvider streams bodies and reports upload progress", .hangLimit)
final class URLSessionProviderProgressTests {
    let server: LoopbackServer
    let provider = URLSessionProvider()

    init() async throws {
        server = try await LoopbackServer()
    }

    @Test("U1 a body reaches the sink piece by piece, after a head that announces its length, and ends once")
    func bodyInPieces() async throws {
        let size = 1_048_576
        let recording = RecordingTransfer()
        _ = provider.startTransfer(URLRequest(url: server.url("/bytes/\(size)")), into: recording)
        let response = try #require(await recording.response())
        #expect(response.body.count == size)
        #expect(response.contentLength == size)
        #expect(recording.pieceSizes.count > 1)  // how many depends on timing; never the whole body in one
        #expect(recording.pieceSizes.reduce(0, +) == size)
        #expect(recording.completionCount == 1)
    }

    @Test("U1 a body of unknown length arrives whole, with no length announced")
    func unknownLength() async throws {
        let size = 300_000
        let recording = RecordingTransfer()
        _ = provider.startTransfer(URLRequest(url: server.url("/chunked/\(size)")), into: recording)
        let response = try #require(await recording.response())
        #expect(response.body.count == size)
        #expect(response.contentLength == nil)
    }

    @Test("U1 the first part of a body still coming reaches the sink before the rest arrives")
    func firstPiece() async throws {
        let recording = RecordingTransfer()
        // The server sends 5 of 10 bytes, then waits until the client goes: the piece cannot wait for the rest, however
        // busy the machine (the test cancels the request once it came).
        let task = provider.startTransfer(URLRequest(url: server.url("/hang?at=body")), into: recording)
        try #require(await recording.firstBytesReceived())
        #expect(recording.pieceSizes == [5])
        #expect(recording.receivedResponse?.contentLength == 10)
        #expect(recording.completionCount == 0)
        task.cancel()
        _ = await recording.error()
    }

    @Test("upload progress rises monotonically to the body size")
    func uploadProgress() async throws {
        let size = 524_288
        var request = URLRequest(url: server.url("/discard"))
        request.httpMethod = "POST"
        request.httpBody = Data(repeating: 0x61, count: size)
        let recording = RecordingTransfer()
        _ = provider.startTransfer(request, into: recording)
        let response = try #require(await recording.response())
        let answer = try JSONSerialization.jsonObject(with: response.body) as? [String: Int]
        #expect(answer?["received"] == size)

        let samples = recording.progressSamples
        #expect(isMonotonic(samples.map(\.bytesSent)))
        #expect(samples.last?.bytesSent == Int64(size))
        #expect(samples.contains { $0.bytesExpectedToSend == Int64(size) })
    }

    @Test("a response without a body hands over no piece and ends once")
    func noBody() async throws {
        let recording = RecordingTransfer()
        _ = provider.startTransfer(URLRequest(url: server.url("/status/204")), into: recording)
        let response = try #require(await recording.response())
        #expect(response.statusCode == 204)
        #expect(recording.pieceSizes.isEmpty)
        #expect(recording.completionCount == 1)
    }

    func isMonotonic(_ values: [Int64]) -> Bool {
        zip(values, values.dropFirst()).allSatisfy { $0 <= $1 }
    }
}
