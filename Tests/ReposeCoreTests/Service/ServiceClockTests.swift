import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@MainActor
@Suite("The service's one clock", .checksLifetimes)
struct ServiceClockTests {
    let harness = Harness()
    var resource: Resource { harness.service.resource("/a/b") }

    @Test("A22 a service on virtual time stamps loads, overrides, errors and cancellations with virtual time only")
    func everyTimestampIsVirtual() async {
        await harness.answer(resource.load(), text: "data")
        #expect(resource.latestData?.timestamp == 1000)

        harness.scheduler.advance(by: .seconds(10))
        resource.overrideLocalData(with: Entity<Any>(content: "edited", contentType: "text/plain"))
        #expect(resource.latestData?.timestamp == 1010)

        harness.scheduler.advance(by: .seconds(10))
        await harness.answer(resource.load(), status: 500, text: "boom")
        #expect(resource.latestError?.timestamp == 1020)

        harness.scheduler.advance(by: .seconds(10))
        let post = resource.request(.post)
        let info = await harness.answer(post, contentType: "application/json", text: "{not json")
        #expect(info.response.error?.timestamp == 1030)  // made by the pipeline, stamped by the response's clock

        harness.scheduler.advance(by: .seconds(10))
        let cancelled = resource.load()
        cancelled.cancel()
        #expect(cancelled.completedResponse?.response.error?.timestamp == 1040)
        #expect(resource.timestamp == 1020)  // a cancellation changes neither data nor error
    }

    @Test("progress is sampled on the service's clock: a report waits for virtual time, not wall time")
    func progressOnVirtualTime() async {
        harness.service.configure { $0.progressReportingInterval = 1 }
        let request = resource.load()
        var seen: [Double] = []
        request.onProgress { seen.append($0) }
        await harness.network.reportProgress(TransferProgress(bytesReceived: 10, bytesExpectedToReceive: 100))
        await harness.network.reportProgress(TransferProgress(bytesReceived: 20, bytesExpectedToReceive: 100))
        #expect(seen == [0.1])  // the 20 % waits for the interval on the service's clock, however long wall time took
        harness.scheduler.advance(by: .seconds(1))
        #expect(seen.count == 2 && seen.last ?? 0 > 0.2)  // a second later on that clock it shows, with time's share
        await harness.answer(request)
        #expect(seen.last == 1)
    }

    @Test("D3 a service on the main scheduler stamps with the date, read once and then advanced by the scheduler")
    func realTimeIsTheDate() {
        let service = Service(baseURL: "https://zingle.frotz/v1", options: .init(networking: harness.network))
        LifetimeCheck.track(service)
        let before = Date().timeIntervalSince1970
        let stamped = service.now()
        let after = Date().timeIntervalSince1970
        // The origin is read from the date once; allow for the scheduler's clock and the date ticking apart.
        #expect(stamped >= before - 1 && stamped <= after + 1)
        #expect(service.now() >= stamped)
    }
}
