import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("URLSessionProvider progress on a slow body")
final class SlowBodyProgressTests {
    let server: LoopbackServer
    let provider = URLSessionProvider()

    init() async throws {
        server = try await LoopbackServer()
    }

    @Test(
        "W7 a 20 KB body coming in pieces is reported while it comes, not in one step at its end",
        arguments: ["", "&length=0"])
    func dripReportsWhileItComes(length: String) async throws {
        // The server holds the second half back until released: a sample must show the first half while the rest is
        // held, however the machine schedules the session's queues. Reported only in 64 KB steps, as it once was,
        // a 20 KB body had no sample until it was whole.
        let recording = RecordingTransfer.send(
            URLRequest(url: server.url("/drip?bytes=20000&chunks=20&hold=half\(length)")), to: provider)
        try #require(await recording.firstBytesReceived())
        let early = recording.progressSamples.map(\.bytesReceived)
        #expect(early.allSatisfy { $0 <= 10_000 }, "samples before the release: \(early)")
        let release = RecordingTransfer.send(URLRequest(url: server.url("/store-release/half")), to: provider)
        try #require(await release.response() != nil)
        let response = try #require(await recording.response())
        #expect(response.body.count == 20_000)
        let received = recording.progressSamples.map(\.bytesReceived)
        #expect(received == received.sorted())
    }
}
