import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A streamed body is read no faster than it is taken (rule X2): swift-corelibs-foundation queues every piece it
/// reads for the delegate, so a writer that falls behind would let a large download pile up in memory. The stuck
/// consumer runs in a child process (`repose-download-probe hold`): on Linux every URLSession of a process shares
/// one queue, so holding a piece here would stall the other suites' requests.
@Suite("X2 a streamed body is read as fast as it is taken")
final class DownloadBackpressureTests {
    let server: LoopbackServer

    init() async throws {
        server = try await LoopbackServer()
    }

    @Test(
        "X2 while the consumer holds a piece of a streamed body, the server is held back; then all of it arrives")
    func stuckConsumerHoldsTheServerBack() async throws {
        let size = 64 << 20
        let release = FileManager.default.temporaryDirectory.appendingPathComponent(
            "repose-hold-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: release) }
        let executable = try ChildProcess.executable(named: "repose-download-probe")
        let arguments = ["hold", server.url("/pace/\(size)?name=stream").absoluteString, release.path]
        // The leak check at exit would end the probe with its own status under AddressSanitizer.
        var environment = ProcessInfo.processInfo.environment
        environment["ASAN_OPTIONS"] = [environment["ASAN_OPTIONS"], "detect_leaks=0"].compactMap { $0 }.joined(
            separator: ":")
        // Far more than the connection's buffers hold: a client that reads on regardless takes it all, unheld.
        let probe = Task { [environment] in
            try await ChildProcess.offTheTestThreads {
                try ChildProcess.run(executable, arguments: arguments, environment: environment, timeout: 120)
            }
        }
        let held = await server.waitForMark("held stream", within: .seconds(60))
        try Data().write(to: release)
        let (status, output) = try await probe.value
        #expect(held)
        #expect(status == 0, "\(output)")
        #expect(output.contains("received \(size)"), "\(output)")
    }
}
