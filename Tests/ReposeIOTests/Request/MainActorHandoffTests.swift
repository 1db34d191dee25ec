import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@MainActor
@Suite("Handing a request's progress and outcome to the main actor")
struct MainActorHandoffTests {
    /// Every delivery, as text: the progress values, then the outcome if there was one.
    @MainActor
    final class Deliveries {
        var log: [String] = []
        var waiter: CheckedContinuation<Void, Never>?

        func record(_ fractions: [Double], _ outcome: ResponseProcessor.Outcome?) {
            log.append("\(fractions) \(outcome.map { _ in "outcome" } ?? "-")")
            waiter?.resume()
            waiter = nil
        }

        /// Waits for the next delivery.
        func next() async {
            await withCheckedContinuation { waiter = $0 }
        }
    }

    @Test("progress and an outcome sent before the main actor runs arrive in one delivery, progress first, in order")
    func coalescesIntoOneHop() async {
        let deliveries = Deliveries()
        let handoff = MainActorHandoff { deliveries.record($0, $1) }
        handoff.send(progress: 0.2)
        handoff.send(progress: 0.5)
        handoff.send(outcome: UncheckedTransfer(.notModified(headers: [:])))
        await deliveries.next()
        #expect(deliveries.log == ["[0.2, 0.5] outcome"])
    }

    @Test("what is sent after a delivery ran gets a hop of its own")
    func laterSendsHopAgain() async {
        let deliveries = Deliveries()
        let handoff = MainActorHandoff { deliveries.record($0, $1) }
        handoff.send(progress: 0.3)
        await deliveries.next()
        handoff.send(outcome: UncheckedTransfer(.notModified(headers: [:])))
        await deliveries.next()
        #expect(deliveries.log == ["[0.3] -", "[] outcome"])
    }

    /// Starts a task that carries the handoff's next hop, and lets it start waiting.
    private func carrier(_ handoff: MainActorHandoff, _ deliveries: Deliveries) async throws -> Task<Bool, Never> {
        let task = Task {
            let accepted = await handoff.carryNextHop()
            deliveries.log.append("carrier returned")
            return accepted
        }
        await Task.yield()
        try #require(handoff.hasWaiter)
        return task
    }

    @Test(
        "a waiting task carries the hop: it delivers before it returns, and no other hop delivers",
        .timeLimit(.minutes(1)))
    func waiterCarriesTheHop() async throws {
        let deliveries = Deliveries()
        let handoff = MainActorHandoff { deliveries.record($0, $1) }
        let task = try await carrier(handoff, deliveries)
        handoff.send(progress: 0.4)
        handoff.send(outcome: UncheckedTransfer(.notModified(headers: [:])))
        #expect(await task.value)
        #expect(deliveries.log == ["[0.4] outcome", "carrier returned"])
        await Task.yield()
        #expect(deliveries.log.count == 2)
        #expect(!handoff.hasWaiter)
    }

    @Test("a hop already scheduled delivers once; the waiter carries the next one", .timeLimit(.minutes(1)))
    func scheduledHopThenWaiter() async throws {
        let deliveries = Deliveries()
        let handoff = MainActorHandoff { deliveries.record($0, $1) }
        handoff.send(progress: 0.3)  // schedules a hop of its own: no one waits yet
        let task = try await carrier(handoff, deliveries)
        #expect(deliveries.log == ["[0.3] -"])
        handoff.send(outcome: UncheckedTransfer(.notModified(headers: [:])))
        #expect(await task.value)
        #expect(deliveries.log == ["[0.3] -", "[] outcome", "carrier returned"])
    }

    @Test(
        "a second waiting task is turned away, and releasing the first resumes it with nothing delivered",
        .timeLimit(.minutes(1)))
    func secondWaiterAndRelease() async throws {
        let deliveries = Deliveries()
        let handoff = MainActorHandoff { deliveries.record($0, $1) }
        let task = try await carrier(handoff, deliveries)
        #expect(await handoff.carryNextHop() == false)
        handoff.releaseWaiter()
        #expect(await task.value)
        #expect(deliveries.log == ["carrier returned"])
        handoff.send(outcome: UncheckedTransfer(.notModified(headers: [:])))  // nobody waits now: a hop of its own
        await deliveries.next()
        #expect(deliveries.log == ["carrier returned", "[] outcome"])
    }
}
