import Foundation
import Repose
import Testing

/// The usual fixture: a service on `https://zingle.frotz/v1` with a manual network and one virtual-time clock, its
/// scheduler, at t=1000 (`clock` shows it in seconds).
@MainActor
final class Harness {
    let scheduler = TestScheduler(now: .seconds(1000))
    let clock: ManualClock
    let network = ManualNetwork()
    let service: Service

    init(baseURL: String? = "https://zingle.frotz/v1") {
        clock = ManualClock(scheduler)
        service = Service(baseURL: baseURL, options: .init(networking: network, scheduler: scheduler))
        LifetimeCheck.track(service)
    }

    deinit {
        // A request the test left unanswered would stay in flight, and keep its resource and service alive,
        // forever: the test's network goes away with the test, failing what it never answered.
        Task { [network] in await network.failPending() }
    }

    /// Answers the oldest pending request and waits until `request` has completed and its hooks have run.
    @discardableResult
    func answer(
        _ request: Request, status: Int = 200, contentType: String = "text/plain", text: String = "",
        headers: [String: String] = [:]
    ) async -> ResponseInfo {
        await network.respond(status: status, contentType: contentType, text: text, headers: headers)
        return await request.responseInfo
    }
}

/// An observer that records every event as text, for one-line comparisons.
@MainActor
final class RecordingObserver: ResourceObserver {
    private(set) var events: [String] = []
    private(set) var stoppedCount = 0
    private(set) var progressReports: [Double] = []
    var onChange: ((Resource, ResourceEvent) -> Void)?

    func resourceChanged(_ resource: Resource, event: ResourceEvent) {
        events.append(event.description)
        onChange?(resource, event)
    }

    func resourceRequestProgress(for resource: Resource, progress: Double) {
        progressReports.append(progress)
    }

    func stoppedObserving(resource: Resource) {
        stoppedCount += 1
    }
}
