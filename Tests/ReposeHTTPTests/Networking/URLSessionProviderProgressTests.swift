import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("URLSessionProvider progress", .hangLimit)
final class URLSessionProviderProgressTests {
    let server: LoopbackServer
    let provider = URLSessionProvider()

    init() async throws {
        server = try await LoopbackServer()
    }

    @Test("download progress rises monotonically to the announced length, before completion")
    func downloadProgress() async throws {
        let size = 1_048_576
        let recording = RecordingTransfer()
        _ = provider.startRequest(
            URLRequest(url: server.url("/bytes/\(size)")), progress: recording.progress,
            completion: recording.completion)
        let response = try #require(await recording.response())
        #expect(response.body.count == size)

        // How many samples arrive depends on timing: samples that pile up are merged into the newest.
        let samples = recording.progressSamples
        #expect(isMonotonic(samples.map(\.bytesReceived)))
        #expect(samples.last?.bytesReceived == Int64(size))
        #expect(samples.allSatisfy { $0.bytesExpectedToReceive == Int64(size) })
        #expect(samples.allSatisfy { $0.bytesReceived <= Int64(size) })
    }

    @Test("a body of unknown length reports what arrived and no total")
    func unknownLength() async throws {
        let size = 300_000
        let recording = RecordingTransfer()
        _ = provider.startRequest(
            URLRequest(url: server.url("/chunked/\(size)")), progress: recording.progress,
            completion: recording.completion)
        let response = try #require(await recording.response())
        #expect(response.body.count == size)
        let samples = recording.progressSamples
        #expect(isMonotonic(samples.map(\.bytesReceived)))
        #expect(samples.last?.bytesReceived == Int64(size))
        #expect(samples.allSatisfy { $0.bytesExpectedToReceive == nil })
    }

    @Test("the first part of a body still coming is reported before the rest arrives")
    func partialProgress() async throws {
        let recording = RecordingTransfer()
        // The server sends 5 of 10 bytes, then waits until the client goes: the report cannot wait for the rest, however
        // busy the machine (the test cancels the request once it came).
        let task = provider.startRequest(
            URLRequest(url: server.url("/hang?at=body")), progress: recording.progress,
            completion: recording.completion)
        try #require(await recording.firstBytesReceived())
        let first = try #require(recording.progressSamples.first)
        #expect(first.bytesReceived == 5)
        #expect(first.bytesExpectedToReceive == 10)
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
        _ = provider.startRequest(request, progress: recording.progress, completion: recording.completion)
        let response = try #require(await recording.response())
        let answer = try JSONSerialization.jsonObject(with: response.body) as? [String: Int]
        #expect(answer?["received"] == size)

        let samples = recording.progressSamples
        #expect(isMonotonic(samples.map(\.bytesSent)))
        #expect(samples.last?.bytesSent == Int64(size))
        #expect(samples.contains { $0.bytesExpectedToSend == Int64(size) })
        #expect(isMonotonic(samples.map(\.bytesReceived)))
    }

    @Test("a response without a body reports no download progress and completes once")
    func noBodyNoProgress() async throws {
        let recording = RecordingTransfer()
        _ = provider.startRequest(
            URLRequest(url: server.url("/status/204")), progress: recording.progress,
            completion: recording.completion)
        let response = try #require(await recording.response())
        #expect(response.statusCode == 204)
        #expect(recording.progressSamples.allSatisfy { $0.bytesReceived == 0 })
        #expect(recording.completionCount == 1)
    }

    func isMonotonic(_ values: [Int64]) -> Bool {
        zip(values, values.dropFirst()).allSatisfy { $0 <= $1 }
    }
}
