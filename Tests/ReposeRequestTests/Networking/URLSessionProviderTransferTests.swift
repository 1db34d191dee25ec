import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@Suite("URLSessionProvider per-task state")
struct URLSessionProviderTransferTests {
    typealias Transfer = URLSessionProvider.SessionDelegate.Transfer

    /// A clock that stands still: these tests are about bytes, and a slow machine must not make time count.
    let transfer = Transfer(maximumSize: .max, clock: { 0 }, progress: { _ in }, completion: { _ in })

    @Test("W7 bytes that moved are worth a report a tenth of a second after the last one, however few they are")
    func reportAfterTime() {
        let clock = ManualNanoseconds()
        let slow = Transfer(maximumSize: .max, clock: clock.read, progress: { _ in }, completion: { _ in })
        let chunk = Data(count: 1000)
        #expect(slow.recordReceived(chunk, expected: 20_000))  // the first bytes of a body still coming
        _ = slow.takeNewSample()
        clock.advance(by: 50_000_000)
        #expect(!slow.recordReceived(chunk, expected: 20_000))
        clock.advance(by: 50_000_000)
        #expect(slow.recordReceived(chunk, expected: 20_000))
        #expect(slow.takeNewSample()?.bytesReceived == 3000)
        clock.advance(by: 200_000_000)
        #expect(!slow.recordSent(0, expected: 5000))  // nothing moved: nothing to report, however long it was
        #expect(slow.recordSent(100, expected: 5000))
    }

    @Test("a body that arrives whole is kept as is and reported with the completion, not before")
    func wholeBody() {
        let body = Data(repeating: 7, count: 1024)
        let worthReporting = transfer.recordReceived(body, expected: 1024)
        #expect(!worthReporting)
        let sample = transfer.takeNewSample()
        let again = transfer.takeNewSample()
        #expect(sample == TransferProgress(bytesReceived: 1024, bytesExpectedToReceive: 1024))
        #expect(again == nil)
        let taken = transfer.takeBody()
        let left = transfer.takeBody()
        #expect(taken == body)
        #expect(left.isEmpty)
    }

    @Test("the first bytes of a body still coming are worth a report, then every sixteenth of the transfer")
    func reportSteps() {
        let total: Int64 = 1_600_000
        let chunk = Data(count: 16_000)
        #expect(transfer.recordReceived(chunk, expected: total))
        _ = transfer.takeNewSample()
        var worth: [Bool] = []
        for _ in 0..<12 {
            worth.append(transfer.recordReceived(chunk, expected: total))
        }
        // 100,000 bytes is a sixteenth: worth a report from the 7th chunk on (112,000 bytes since the last one).
        #expect(worth == [false, false, false, false, false, false, true, true, true, true, true, true])
        let newest = transfer.takeNewSample()
        #expect(newest?.bytesReceived == Int64(13 * 16_000))
        #expect(transfer.takeBody().count == 13 * 16_000)
    }

    @Test("a chunk is accepted while the body stays within the maximum size, and only then")
    func maximumSize() {
        let limited = Transfer(maximumSize: 100, progress: { _ in }, completion: { _ in })
        #expect(limited.canReceive(100))
        #expect(!limited.canReceive(101))
        _ = limited.recordReceived(Data(count: 60), expected: -1)
        #expect(limited.canReceive(40))
        #expect(!limited.canReceive(41))
        #expect(Transfer(maximumSize: .max, progress: { _ in }, completion: { _ in }).canReceive(.max))
    }

    @Test("upload samples only move forward, and a total of 0 or less means unknown")
    func uploadSamples() {
        #expect(transfer.recordSent(70_000, expected: 100_000))
        #expect(!transfer.recordSent(70_000, expected: 100_000))
        #expect(!transfer.recordSent(60_000, expected: 100_000))
        let sent = transfer.takeNewSample()
        #expect(sent == TransferProgress(bytesSent: 70_000, bytesExpectedToSend: 100_000))

        let unknown = Transfer(maximumSize: .max, progress: { _ in }, completion: { _ in })
        _ = unknown.recordSent(10, expected: -1)
        _ = unknown.recordReceived(Data(count: 5), expected: -1)
        let both = unknown.takeNewSample()
        #expect(both == TransferProgress(bytesSent: 10, bytesReceived: 5))
    }

    @Test("a chunk announced larger than its Content-Length raises the total instead of passing it")
    func lengthGrows() {
        _ = transfer.recordReceived(Data(count: 80), expected: 50)
        let sample = transfer.takeNewSample()
        #expect(sample == TransferProgress(bytesReceived: 80, bytesExpectedToReceive: 80))
    }
}

/// A monotonic clock in nanoseconds that moves only when told.
final class ManualNanoseconds: @unchecked Sendable {
    // `@unchecked Sendable`: `now` is only touched under `lock`.
    private let lock = NSLock()
    private var now: UInt64 = 1_000_000_000

    var read: @Sendable () -> UInt64 { { [self] in lock.withLock { now } } }

    func advance(by nanoseconds: UInt64) {
        lock.withLock { now += nanoseconds }
    }
}
