import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@MainActor
@Suite("Progress while waiting for the server", .checksLifetimes)
struct ProgressWhileWaitingTests {
    let harness = Harness()
    var resource: Resource { harness.service.resource("/a") }

    @Test("P1 progress moves with elapsed time while a slow server says nothing, then ends at exactly 1")
    func movesWhileWaiting() async {
        let request = resource.load()
        var seen: [Double] = []
        request.onProgress { seen.append($0) }
        harness.scheduler.advance(by: .seconds(1))
        let afterOneSecond = request.progress
        harness.scheduler.advance(by: .seconds(1))
        let afterTwoSeconds = request.progress
        #expect(afterOneSecond > 0)
        #expect(afterTwoSeconds > afterOneSecond)
        #expect(afterTwoSeconds < 0.3)
        await harness.answer(request)
        #expect(request.progress == 1)
        #expect(seen.count > 2)
        #expect(seen == seen.sorted())
        #expect(seen.last == 1)
    }

    @Test("observers of a load hear the waiting progress too")
    func observersHearWaiting() {
        let observer = RecordingObserver()
        resource.addObserver(observer)
        resource.load()
        harness.scheduler.advance(by: .seconds(1))
        #expect(!observer.progressReports.isEmpty)
        #expect(observer.progressReports == observer.progressReports.sorted())
    }

    @Test(
        "W7 once the response starts, bytes move progress from where the wait left it, and time moves it on slowly",
        .hangLimit)
    func bytesTakeOver() async {
        harness.service.configure { $0.progressReportingInterval = 0 }  // the byte report follows a tick's at once
        let request = resource.load()
        harness.scheduler.advance(by: .seconds(2))
        let waited = request.progress
        let expected = waited + (1 - waited) * 0.5
        await harness.network.reportProgress(TransferProgress(bytesReceived: 50, bytesExpectedToReceive: 100))
        let halfway = request.progress
        #expect(abs(halfway - expected) < 1e-9)
        harness.scheduler.advance(by: .seconds(5))
        // Time closes part of the distance to the end, never all of it: only completion makes it 1.
        #expect(request.progress > halfway && request.progress < halfway + (1 - halfway) * 0.5)
    }

    @Test("one tick serves every waiting request, and no tick is left once none waits")
    func oneTickPerService() async {
        let first = resource.load()
        let second = harness.service.resource("/b").load()
        let third = harness.service.resource("/c").load()
        #expect(harness.scheduler.pendingCount == 1)
        harness.scheduler.advance(by: .milliseconds(500))
        #expect(harness.scheduler.pendingCount == 1)
        #expect(first.progress > 0 && second.progress == first.progress && third.progress == first.progress)
        await harness.answer(first)
        await harness.answer(second)
        await harness.answer(third)
        harness.scheduler.advance(by: .seconds(1))
        #expect(harness.scheduler.pendingCount == 0)
    }

    @Test("P1 requests that leave from anywhere among the waiting, even during a tick, leave the others ticking")
    func leavingFromAnywhere() {
        let requests = ["/a", "/b", "/c", "/d", "/e"].map { harness.service.resource($0).load() }
        requests[1].cancel()  // from the middle: the last waiter takes its place
        requests[3].cancel()
        harness.scheduler.advance(by: .milliseconds(500))
        let waiting = [requests[0], requests[2], requests[4]]
        let first = waiting.map(\.progress)
        #expect(first.allSatisfy { $0 > 0 && $0 < 1 } && Set(first).count == 1)
        #expect(requests[1].progress == 1 && requests[3].progress == 1)
        requests[0].onProgress { _ in requests[4].cancel() }  // a hook that ends another waiter during a tick
        harness.scheduler.advance(by: .milliseconds(500))
        #expect(requests[4].progress == 1)
        let second = [requests[0], requests[2]].map(\.progress)
        #expect(second.allSatisfy { $0 > first[0] && $0 < 1 })
        harness.scheduler.advance(by: .milliseconds(500))
        #expect([requests[0], requests[2]].allSatisfy { $0.progress > second[0] && $0.progress < 1 })
    }

    @Test("the wait's share levels off below 0.3 within seconds, and the tick stops with it")
    func levelsOff() {
        let request = resource.load()
        harness.scheduler.advance(by: .seconds(60))
        #expect(request.progress > 0.29 && request.progress < 0.3)
        #expect(harness.scheduler.pendingCount == 0)
    }

    @Test("P1 cancelling while waiting makes progress 1 at once and stops the tick")
    func cancelWhileWaiting() {
        let request = resource.load()
        harness.scheduler.advance(by: .seconds(1))
        request.cancel()
        #expect(request.progress == 1)
        harness.scheduler.advance(by: .seconds(1))
        #expect(harness.scheduler.pendingCount == 0)
    }

    @Test("a configured progressReportingInterval also spaces the waiting reports")
    func waitingReportsFollowInterval() {
        harness.service.configure { $0.progressReportingInterval = 1 }
        let request = resource.load()
        var seen: [Double] = []
        request.onProgress { seen.append($0) }
        harness.scheduler.advance(by: .milliseconds(2500))
        #expect(seen.count == 3)  // at the first tick, then at the first ticks a second and two seconds later
    }

    @Test("P1 on an immediate scheduler, where no time passes, waiting does not tick and a load still ends at 1")
    func immediateScheduler() async {
        let network = ManualNetwork()
        let service = Service(
            baseURL: "https://zingle.frotz/v1", options: .init(networking: network, scheduler: ImmediateScheduler()))
        LifetimeCheck.track(service)
        let request = service.resource("/a").load()
        let second = service.resource("/b").load()
        #expect(request.progress < 0.3 && second.progress < 0.3)
        await network.respond(status: 200)
        await network.respond(status: 200)
        _ = await request.responseInfo
        _ = await second.responseInfo
        #expect(request.progress == 1 && second.progress == 1)
    }
}
