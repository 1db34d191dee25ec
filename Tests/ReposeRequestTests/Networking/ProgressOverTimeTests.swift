import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@MainActor
@Suite("Progress while a body comes", .checksLifetimes)
struct ProgressOverTimeTests {
    let harness = Harness()
    var resource: Resource { harness.service.resource("/a") }

    /// Reports `sample` for the pending request, which delivers it to the main actor before this resumes, and records
    /// an issue unless `request` then reports a value at least `least`.
    func report(
        _ sample: TransferProgress, on request: Request, reaching least: Double,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        await harness.network.reportProgress(sample)
        #expect(request.progress >= least - 1e-9, "no progress of at least \(least)", sourceLocation: sourceLocation)
    }

    @Test(
        "W7 while a slow body comes, progress is reported at every tick, grows, stays below 1, and ends at 1",
        .hangLimit)
    func movesWithTimeDuringBody() async {
        let request = resource.load()
        // Between ticks, and past the reporting interval since the last one: the bytes' report is not held back.
        harness.scheduler.advance(by: .milliseconds(280))
        await report(TransferProgress(bytesReceived: 1000, bytesExpectedToReceive: 20_000), on: request, reaching: 0.09)
        // The tick right after the bytes' report may fall within the reporting interval of it.
        harness.scheduler.advance(by: .milliseconds(100))
        var seen: [Double] = []
        request.onProgress { seen.append($0) }
        for _ in 0..<20 {  // two seconds without a byte
            let before = seen.count
            harness.scheduler.advance(by: .milliseconds(100))
            #expect(seen.count == before + 1, "no report in this tenth of a second")
        }
        #expect(seen == seen.sorted() && Set(seen).count == seen.count)
        #expect(seen.allSatisfy { $0 < 1 })
        await harness.answer(request)
        #expect(request.progress == 1)
    }

    @Test(
        "W7 a body of unknown length moves the progress with its bytes and with time, never to 1 before the end",
        .hangLimit)
    func unknownLengthMoves() async {
        let request = resource.load()
        await report(TransferProgress(bytesReceived: 10_000), on: request, reaching: 0.01)
        let afterBytes = request.progress
        harness.scheduler.advance(by: .milliseconds(80))  // past the reporting interval, before the first tick
        await report(TransferProgress(bytesReceived: 500_000), on: request, reaching: afterBytes + 0.1)
        let afterMore = request.progress
        harness.scheduler.advance(by: .seconds(30))
        #expect(request.progress > afterMore)
        #expect(request.progress < 1)
        await harness.answer(request)
        #expect(request.progress == 1)
    }

    @Test("W7 a body that starts after the wait levelled off brings back the tick", .hangLimit)
    func bodyAfterLongWait() async {
        let request = resource.load()
        harness.scheduler.advance(by: .seconds(60))
        #expect(harness.scheduler.pendingCount == 0)
        let waited = request.progress
        await report(
            TransferProgress(bytesReceived: 100, bytesExpectedToReceive: 100_000), on: request, reaching: waited)
        let started = request.progress
        harness.scheduler.advance(by: .seconds(1))
        #expect(request.progress > started)
        await harness.answer(request)
        harness.scheduler.advance(by: .seconds(1))
        #expect(harness.scheduler.pendingCount == 0)
    }
}
