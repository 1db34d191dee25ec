import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// A resource's state says when its data is stale, and says so on its own when the data ages (rule R7).
@MainActor
@Suite("Stale state", .checksLifetimes)
struct StaleStateTests {
    let harness = Harness()
    var resource: Resource { harness.service.resource("/a") }

    @Test("R7 a state observer gets a new snapshot when the data turns stale, without any load")
    func turnsStaleOnItsOwn() async throws {
        let owner = NSObject()
        var snapshots: [Bool] = []
        resource.overrideLocalContent(with: "data")  // at 1000; expires after 30 s
        resource.state.observe(owner: owner) { snapshots.append($0.isStale) }
        #expect(snapshots == [false])
        harness.clock.now += 29.9
        #expect(snapshots == [false])
        harness.clock.now += 0.1
        #expect(snapshots == [false, true])
        #expect(harness.network.sent.isEmpty)
        harness.clock.now += 100
        #expect(snapshots == [false, true])  // once
        withExtendedLifetime(owner) {}
    }

    @Test("R7 new data restarts the watch; invalidation is stale at once")
    func restartsAndInvalidates() async throws {
        let owner = NSObject()
        var snapshots: [Bool] = []
        resource.overrideLocalContent(with: "old")
        resource.state.observe(owner: owner) { snapshots.append($0.isStale) }
        harness.clock.now += 20
        resource.overrideLocalContent(with: "new")  // fresh until 1050 now; the watch for 1030 is dropped
        harness.clock.now += 15
        #expect(snapshots == [false, false])
        harness.clock.now += 15
        #expect(snapshots == [false, false, true])
        resource.overrideLocalContent(with: "newer")
        resource.invalidate()
        #expect(snapshots == [false, false, true, false, true])
        #expect(resource.currentState.isStale)
        withExtendedLifetime(owner) {}
    }

    @Test("R7 the watch runs only while the state is observed")
    func onlyWhileObserved() async throws {
        resource.overrideLocalContent(with: "data")
        #expect(harness.scheduler.pendingCount == 0)
        let subscription = resource.state.observe { _ in }
        #expect(harness.scheduler.pendingCount == 1)
        subscription.cancel()
        var later: [Bool] = []
        harness.clock.now += 40
        #expect(resource.currentState.isStale)
        _ = resource.state.observe { later.append($0.isStale) }.cancel
        #expect(later == [true])
        #expect(harness.scheduler.pendingCount == 0)  // stale already: nothing to wait for
    }

    @Test("R7 cancelling a state's last subscription withdraws its stale timer: nothing stays scheduled or fires")
    func timerWithdrawnWithLastObserver() {
        resource.overrideLocalContent(with: "data")  // stale at 1030
        var snapshots = 0
        let first = resource.state.observe { _ in snapshots += 1 }
        let second = resource.state.observe { _ in snapshots += 1 }
        #expect(harness.scheduler.pendingCount == 1)
        first.cancel()
        #expect(harness.scheduler.pendingCount == 1)  // one subscriber still waits for it
        second.cancel()
        #expect(harness.scheduler.pendingCount == 0)
        #expect(resource.core.timers.count == 0)
        harness.clock.now += 40
        #expect(snapshots == 2)  // the two replays, nothing more
    }

    @Test("R7 no data is not stale; an error keeps the data's own age")
    func withoutDataOrWithError() async throws {
        #expect(!resource.currentState.isStale)
        let first = resource.load()
        await harness.answer(first, text: "data")
        harness.clock.now += 10
        let second = resource.load()
        await harness.answer(second, status: 500)
        #expect(!resource.currentState.isStale)  // the data is 10 s old
        harness.clock.now += 20
        #expect(resource.currentState.isStale)
    }
}
