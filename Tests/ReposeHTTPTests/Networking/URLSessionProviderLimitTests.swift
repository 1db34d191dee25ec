import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("URLSessionProvider response size limit", .hangLimit)
final class URLSessionProviderLimitTests {
    let server: LoopbackServer
    let provider = URLSessionProvider()

    init() async throws {
        server = try await LoopbackServer()
    }

    @Test("a 10 MB body loads in full under the default limit")
    func tenMegabytesLoad() async throws {
        let size = 10 * 1024 * 1024
        let response = try #require(await send(server.url("/bytes/\(size)")).response())
        #expect(response.body.count == size)
    }

    @Test("a small gzip body that inflates past the default limit fails with ResponseTooLarge")
    func gzipBombUnderTheDefaultLimit() async throws {
        let recording = send(server.url("/gzip?size=\(64 * 1024 * 1024)"))
        let error = try #require(await recording.error())
        let cause = try #require(error as? RequestError.Cause.ResponseTooLarge)
        #expect(cause.maximumSize == 32 * 1024 * 1024)
        #expect(recording.completionCount == 1)
        #expect(provider.delegate?.activeTransferCount == 0)
        // Anything that still arrives after the failure is dropped, not kept: the process did not take in 64 MB.
        #expect(recording.progressSamples.allSatisfy { $0.bytesReceived <= 32 * 1024 * 1024 })
    }

    @Test("a gzip body that inflates past a given limit fails, one that stays under it loads inflated")
    func gzipAgainstAGivenLimit() async throws {
        let tooLarge = send(server.url("/gzip?size=300000"), limit: 200_000)
        #expect(try #require(await tooLarge.error()) is RequestError.Cause.ResponseTooLarge)

        let fits = try #require(await send(server.url("/gzip?size=200000"), limit: 200_000).response())
        #expect(fits.body == Data(repeating: UInt8(ascii: "z"), count: 200_000))
    }

    @Test("a body announced larger than the limit fails at once, before it is sent")
    func announcedTooLarge() async throws {
        // The server would take seconds to send the announced bytes; the failure comes from the announcement.
        let recording = send(server.url("/drop?announce=50000000&send=1000"), limit: 1000)
        let error = try #require(await recording.error())
        #expect((error as? RequestError.Cause.ResponseTooLarge)?.maximumSize == 1000)
        #expect(recording.progressSamples.allSatisfy { $0.bytesReceived <= 1000 })
        #expect(provider.delegate?.activeTransferCount == 0)
    }

    @Test("a HEAD answer announcing a body larger than the limit succeeds: no body comes")
    func headIsNotTooLarge() async throws {
        var request = URLRequest(url: server.url("/bytes/100000"))
        request.httpMethod = "HEAD"
        let recording = RecordingTransfer()
        _ = provider.startRequest(
            request, maximumResponseSize: 1000, progress: recording.progress, completion: recording.completion)
        let response = try #require(await recording.response())
        #expect(response.statusCode == 200)
        #expect(response.body.isEmpty)
    }

    @Test("a body without a length fails as soon as what arrived passes the limit")
    func chunkedTooLarge() async throws {
        let recording = send(server.url("/chunked/\(4 * 1024 * 1024)"), limit: 100_000)
        #expect(try #require(await recording.error()) is RequestError.Cause.ResponseTooLarge)
        #expect(recording.completionCount == 1)
        #expect(provider.delegate?.activeTransferCount == 0)
    }

    @Test("a body exactly at the limit loads")
    func exactlyAtTheLimit() async throws {
        #expect(try #require(await send(server.url("/bytes/5000"), limit: 5000).response()).body.count == 5000)
        #expect(try #require(await send(server.url("/chunked/5000"), limit: 5000).response()).body.count == 5000)
    }

    @Test("a provider that only implements the plain method gets the limit checked on the complete response")
    func defaultImplementation() async throws {
        let plain = PlainProvider(wrapped: provider)
        let recording = RecordingTransfer()
        _ = plain.startRequest(
            URLRequest(url: server.url("/bytes/5001")), maximumResponseSize: 5000, progress: recording.progress,
            completion: recording.completion)
        #expect((try #require(await recording.error()) as? RequestError.Cause.ResponseTooLarge)?.maximumSize == 5000)
    }

    func send(_ url: URL, limit: Int? = nil) -> RecordingTransfer {
        let recording = RecordingTransfer()
        if let limit {
            _ = provider.startRequest(
                URLRequest(url: url), maximumResponseSize: limit, progress: recording.progress,
                completion: recording.completion)
        } else {
            _ = provider.startRequest(
                URLRequest(url: url), progress: recording.progress, completion: recording.completion)
        }
        return recording
    }
}

/// A provider written before the size limit existed: it implements only the method without one.
private struct PlainProvider: NetworkingProvider {
    let wrapped: URLSessionProvider

    func startRequest(
        _ request: URLRequest, progress: @escaping @Sendable (TransferProgress) -> Void,
        completion: @escaping @Sendable (Result<NetworkResponse, any Error>) -> Void
    ) -> any NetworkingTask {
        wrapped.startRequest(request, maximumResponseSize: .max, progress: progress, completion: completion)
    }
}
