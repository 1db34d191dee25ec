import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// Polling (`refreshInterval`) on virtual time: every wait is the harness's scheduler, advanced by hand.
@MainActor
@Suite("Polling observed resources", .checksLifetimes)
struct PollingTests {
    let harness = Harness()
    var resource: Resource { harness.service.resource("/feed") }

    init() {
        harness.service.configure("/feed") { $0.refreshInterval = 10 }
    }

    /// Answers the request in flight and waits for its hooks.
    private func answer(_ text: String = "x") async throws {
        let request = try #require(resource.loadRequests.first)
        await harness.answer(request, text: text)
    }

    @Test("R6 an observed resource loads at once, then again the interval after each completed load")
    func pollsWhileObserved() async throws {
        let observer = RecordingObserver()
        resource.addObserver(observer)
        #expect(harness.network.sent.count == 1)  // no data: loads at once
        try await answer("1")
        harness.clock.now += 9.9
        #expect(harness.network.sent.count == 1)
        harness.clock.now += 0.1
        #expect(harness.network.sent.count == 2)
        harness.clock.now += 30  // in flight: no second load however long it takes
        #expect(harness.network.sent.count == 2)
        try await answer("2")  // completed at 1040: the next poll is at 1050
        harness.clock.now += 10
        #expect(harness.network.sent.count == 3)
        try await answer("3")
        #expect(observer.events.filter { $0 == "requested" }.count == 3)
    }

    @Test("R6 a failed load is followed by a poll too")
    func pollsAfterFailure() async throws {
        let observer = RecordingObserver()
        resource.addObserver(observer)
        let request = try #require(resource.loadRequests.first)
        await harness.answer(request, status: 500)
        harness.clock.now += 10
        #expect(harness.network.sent.count == 2)
        try await answer()
    }

    @Test("R6 polling stops when the last observer goes, and resumes when one returns")
    func stopsAndResumes() async throws {
        var observer: RecordingObserver? = RecordingObserver()
        resource.addObserver(try #require(observer))
        try await answer()  // loaded at 1000; a poll is due at 1010
        observer = nil
        harness.clock.now += 30
        #expect(harness.network.sent.count == 1)  // nobody watched at 1010: no load, and none since

        let returning = RecordingObserver()
        resource.addObserver(returning)  // data from 1000, now 1030: older than the interval, so at once
        #expect(harness.network.sent.count == 2)
        try await answer()  // completed at 1030
        resource.removeObservers(ownedBy: returning)
        harness.clock.now += 4
        let again = RecordingObserver()
        resource.addObserver(again)  // data 4 s old: waits until 1040
        #expect(harness.network.sent.count == 2)
        harness.clock.now += 6
        #expect(harness.network.sent.count == 3)
        try await answer()
    }

    @Test("R6 a state subscription counts as an observer for polling")
    func stateSubscriptionPolls() async throws {
        let owner = NSObject()
        resource.state.observe(owner: owner) { _ in }
        #expect(harness.network.sent.count == 1)
        try await answer()
        harness.clock.now += 10
        #expect(harness.network.sent.count == 2)
        try await answer()
        withExtendedLifetime(owner) {}
    }

    @Test("R6 10,000 polling resources wait on one timer of the scheduler")
    func oneTimerForAll() async throws {
        harness.service.configure("/many/*") { $0.refreshInterval = 60 }
        let owner = NSObject()
        let resources = (0..<10_000).map { harness.service.resource("/many/\($0)") }
        for (index, resource) in resources.enumerated() {
            resource.overrideLocalContent(with: "cached")  // fresh data: every one waits for its poll
            resource.addObserver(owner: owner) { _, _ in }
            if index % 500 == 0 { await Task.yield() }  // other suites' main-actor work runs meanwhile
        }
        #expect(harness.network.sent.isEmpty)
        #expect(harness.scheduler.pendingCount == 1)
        harness.clock.now += 60
        #expect(harness.network.sent.count == 10_000)
        for (index, resource) in resources.enumerated() {
            resource.removeObservers(ownedBy: owner)
            resource.cancelLoadIfUnobserved()
            if index % 500 == 0 { await Task.yield() }
        }
    }

    @Test("R6 without refreshInterval nothing is scheduled")
    func offByDefault() async throws {
        let plain = harness.service.resource("/plain")
        plain.addObserver(RecordingObserver())
        plain.loadIfNeeded()
        let request = try #require(plain.loadRequests.first)
        await harness.answer(request)
        harness.scheduler.advance(by: ProgressTicker.interval)  // the tick of the waiting progress ends by itself
        #expect(harness.scheduler.pendingCount == 0)
    }
}
