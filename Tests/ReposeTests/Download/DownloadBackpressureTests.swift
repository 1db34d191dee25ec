import Foundation
import Testing

@testable import Repose

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A streamed body is read no faster than it is taken (rule X2): swift-corelibs-foundation queues every piece it
/// reads for the delegate, so a writer that falls behind would let a large download pile up in memory.
@Suite("X2 a streamed body is read as fast as it is taken")
final class DownloadBackpressureTests {
    let server: LoopbackServer

    init() async throws {
        server = try await LoopbackServer()
    }

    /// Holds the first piece of a body until `open()`, as a writer stuck on a slow disk would; counts the rest.
    final class StuckWriter: @unchecked Sendable {
        // Safe: `received` is only touched under `lock`; the semaphore is thread-safe.
        private let gate = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var received = 0

        func take(_ data: Data) {
            let isFirst = lock.withLock {
                received += data.count
                return received == data.count
            }
            // Bounded: a regression that never opens the gate fails the test instead of hanging it.
            if isFirst { _ = gate.wait(timeout: .now() + 60) }
        }

        func open() { gate.signal() }

        var total: Int { lock.withLock { received } }
    }

    @Test(
        "X2 while the consumer holds a piece of a streamed body, the server is held back; then all of it arrives")
    func stuckConsumerHoldsTheServerBack() async throws {
        let size = 64 << 20
        let writer = StuckWriter()
        let provider = URLSessionProvider()
        let request = URLRequest(url: server.url("/pace/\(size)?name=stream"))
        let server = server
        // Far more than the connection's buffers hold: a client that reads on regardless takes it all, unheld.
        let opener = Task {
            let held = await server.waitForMark("held stream", within: .seconds(30))
            writer.open()
            return held
        }
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
            _ = provider.startStreaming(
                request, response: { _ in }, body: { writer.take($0) },
                completion: { error in continuation.resume(returning: error.map { "\($0)" } ?? "ended") })
        }
        #expect(await opener.value)
        #expect(outcome == "ended")
        #expect(writer.total == size)
    }
}
