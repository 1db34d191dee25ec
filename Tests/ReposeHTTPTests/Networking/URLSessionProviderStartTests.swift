import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("URLSessionProvider: starting a request never waits for the network")
final class URLSessionProviderStartTests {
    let server: LoopbackServer
    let provider = URLSessionProvider()

    init() async throws {
        server = try await LoopbackServer()
    }

    @Test("a request starts while the session's network queue is held by another request's body, and both complete")
    func startWhileTheNetworkIsBusy() async throws {
        // The body stream is read on the session's own queue; while `read` blocks, that queue is held.
        let gate = GatedBodyStream()
        defer { gate.release() }  // however the test ends: the held queue is the whole process's on Linux
        var upload = URLRequest(url: server.url("/sink"))
        upload.httpMethod = "POST"
        upload.httpBodyStream = gate
        let first = RecordingTransfer.send(upload, to: provider)
        #expect(await gate.waitUntilReading())

        let second = RecordingTransfer.send(URLRequest(url: server.url("/echo")), to: provider)
        // Swift-corelibs-foundation makes a task with a synchronous call onto that queue: had `startTransfer` made
        // it in place, it would have returned only once the gate gave up.
        #expect(gate.isHolding)

        gate.release()
        #expect(try #require(await first.response()).statusCode == 200)
        #expect(try #require(await second.response()).statusCode == 200)
    }

    @Test("E11 a queued task cancelled before its turn is never made; cancelled while being made, it is cancelled")
    func queuedTaskCancellation() throws {
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let url = try #require(URL(string: "http://127.0.0.1:9/never"))
        let queue = DispatchQueue(label: "test.start")

        let early = URLSessionProvider.QueuedTask(queue: queue)
        early.cancel()
        var made = false
        queue.sync {
            early.run {
                made = true
                return session.dataTask(with: url)
            }
        }
        #expect(!made)

        let meanwhile = URLSessionProvider.QueuedTask(queue: queue)
        var task: URLSessionTask?
        queue.sync {
            meanwhile.run {
                let new = session.dataTask(with: url)
                task = new
                meanwhile.cancel()  // before `run` has the task to cancel
                return new
            }
        }
        queue.sync {}  // the cancellation, queued after the start
        #expect(try #require(task).state != .suspended)
    }
}

/// A request body whose first read blocks until the test calls `release()` (or two minutes pass), then ends.
///
/// `status` is only touched by the session, on its queue; what the test reads is behind a lock or a semaphore.
private final class GatedBodyStream: InputStream {
    private let reading = DispatchSemaphore(value: 0)
    private let released = DispatchSemaphore(value: 0)
    private let holding = NSLock()
    private var held = false
    private var status: Stream.Status = .notOpen

    init() {
        super.init(data: Data())
    }

    /// Whether a read is blocked at the gate right now.
    var isHolding: Bool { holding.withLock { held } }

    /// Waits, off the caller's thread, until the session reads the body; `false` if it did not within 60 seconds.
    func waitUntilReading() async -> Bool {
        let reading = reading
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: reading.wait(timeout: .now() + 60) == .success)
            }
        }
    }

    /// Lets the blocked read end the body.
    func release() {
        released.signal()
    }

    override func open() {
        if status == .notOpen { status = .open }
    }

    override func close() {
        status = .closed
    }

    override var streamStatus: Stream.Status { status }
    override var hasBytesAvailable: Bool { status == .open }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength: Int) -> Int {
        guard status == .open else { return 0 }
        holding.withLock { held = true }
        reading.signal()
        // Long enough for a machine busy with a sanitizer and the whole suite (a 10 s bound once ran out before the
        // test looked); bounded all the same, so a test that never releases it fails instead of hanging.
        _ = released.wait(timeout: .now() + 120)
        holding.withLock { held = false }
        status = .atEnd
        return 0
    }
}
