import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@Suite("Progress samples and a body in memory, as an attempt keeps them")
struct ProgressSamplerTests {
    /// A sampler whose clock stands still: these tests are about bytes, unless they move the time themselves.
    let sampler = Sampling()

    @Test("W7 bytes that moved are worth a report a tenth of a second after the last one, however few they are")
    func reportAfterTime() {
        sampler.expect(20_000)
        #expect(sampler.received(1000, at: 0))  // the first bytes of a body still coming
        _ = sampler.take(at: 0)
        #expect(!sampler.received(1000, at: 0.05))
        #expect(sampler.received(1000, at: 0.1))
        #expect(sampler.take(at: 0.1)?.bytesReceived == 3000)
        #expect(!sampler.merge(TransferProgress(bytesSent: 0, bytesExpectedToSend: 5000), at: 0.3))  // nothing moved
        #expect(sampler.merge(TransferProgress(bytesSent: 100, bytesExpectedToSend: 5000), at: 0.3))
    }

    @Test("a body that arrives whole is not worth a report of its own: its outcome follows at once")
    func wholeBody() {
        sampler.expect(1024)
        #expect(!sampler.received(1024, at: 0))
        #expect(sampler.take(at: 0) == TransferProgress(bytesReceived: 1024, bytesExpectedToReceive: 1024))
        #expect(sampler.take(at: 0) == nil)
    }

    @Test("the first bytes of a body still coming are worth a report, then every sixteenth of the transfer")
    func reportSteps() {
        sampler.expect(1_600_000)
        #expect(sampler.received(16_000, at: 0))
        _ = sampler.take(at: 0)
        var worth: [Bool] = []
        for _ in 0..<12 {
            worth.append(sampler.received(16_000, at: 0))
        }
        // 100,000 bytes is a sixteenth: worth a report from the 7th chunk on (112,000 bytes since the last one).
        #expect(worth == [false, false, false, false, false, false, true, true, true, true, true, true])
        #expect(sampler.take(at: 0)?.bytesReceived == Int64(13 * 16_000))
    }

    @Test("upload samples only move forward, and a total of 0 or less means unknown")
    func uploadSamples() {
        #expect(sampler.merge(TransferProgress(bytesSent: 70_000, bytesExpectedToSend: 100_000), at: 0))
        #expect(!sampler.merge(TransferProgress(bytesSent: 70_000, bytesExpectedToSend: 100_000), at: 0))
        #expect(!sampler.merge(TransferProgress(bytesSent: 60_000, bytesExpectedToSend: 100_000), at: 0))
        #expect(sampler.take(at: 0) == TransferProgress(bytesSent: 70_000, bytesExpectedToSend: 100_000))

        let unknown = Sampling()
        _ = unknown.merge(TransferProgress(bytesSent: 10, bytesExpectedToSend: -1), at: 0)
        _ = unknown.received(5, at: 0)
        #expect(unknown.take(at: 0) == TransferProgress(bytesSent: 10, bytesReceived: 5))
    }

    @Test("a provider's own count of received bytes is worth a report as it comes, but for the last")
    func providersCount() {
        #expect(sampler.merge(TransferProgress(bytesReceived: 50, bytesExpectedToReceive: 100), at: 0))
        #expect(sampler.merge(TransferProgress(bytesReceived: 60, bytesExpectedToReceive: 100), at: 0))
        #expect(!sampler.merge(TransferProgress(bytesReceived: 100, bytesExpectedToReceive: 100), at: 0))
    }

    @Test("a body longer than its Content-Length raises the total instead of passing it")
    func lengthGrows() {
        sampler.expect(50)
        _ = sampler.received(80, at: 0)
        #expect(sampler.take(at: 0) == TransferProgress(bytesReceived: 80, bytesExpectedToReceive: 80))
    }

    @Test("a body in memory takes pieces while it stays within its maximum size, and refuses one announced larger")
    func memoryBodyLimit() throws {
        let limited = MemoryBody(maximumSize: 100)
        #expect(throws: RequestError.Cause.ResponseTooLarge.self) {
            _ = try limited.begin(NetworkResponse(statusCode: 200, headers: ["Content-Length": "101"]))
        }
        let body = MemoryBody(maximumSize: 100)
        _ = try body.begin(NetworkResponse(statusCode: 200))
        _ = try body.append(Data(count: 60))
        _ = try body.append(Data(count: 40))
        #expect(throws: RequestError.Cause.ResponseTooLarge.self) { _ = try body.append(Data(count: 1)) }
        let head = MemoryBody(maximumSize: 100, isHead: true)  // a HEAD's length is not a body that comes
        _ = try head.begin(NetworkResponse(statusCode: 200, headers: ["Content-Length": "5000"]))
    }

    @Test("an error's body past the limit is cut there, not refused, and a body that came whole is kept as it is")
    func memoryBodyTruncates() throws {
        let error = MemoryBody(maximumSize: 10, truncates: true)
        _ = try error.begin(NetworkResponse(statusCode: 500, headers: ["Content-Length": "5000"]))
        _ = try error.append(Data(repeating: 1, count: 8))
        _ = try error.append(Data(repeating: 2, count: 8))
        guard case .whole(let cut) = error.end(NetworkResponse(statusCode: 500)) else {
            Issue.record("a body in memory ends whole")
            return
        }
        #expect(cut.body == Data(repeating: 1, count: 8) + Data(repeating: 2, count: 2))
        let piece = Data(repeating: 7, count: 1024)
        let whole = MemoryBody(maximumSize: .max)
        _ = try whole.append(piece)
        guard case .whole(let kept) = whole.end(NetworkResponse(statusCode: 200)) else { return }
        #expect(kept.body == piece)
    }
}

/// A ``ProgressSampler`` behind a reference, so that an expectation can call its mutating methods.
final class Sampling {
    private var sampler = ProgressSampler(at: 0)

    func expect(_ length: Int?) { sampler.expect(length) }
    func received(_ count: Int, at time: TimeInterval) -> Bool { sampler.received(count, at: time) }
    func merge(_ sample: TransferProgress, at time: TimeInterval) -> Bool { sampler.merge(sample, at: time) }
    func take(at time: TimeInterval) -> TransferProgress? { sampler.take(at: time) }
}
