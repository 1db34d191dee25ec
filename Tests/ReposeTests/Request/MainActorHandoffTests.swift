import Foundation
import Testing

@testable import Repose

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
        handoff.send(outcome: UncheckedTransfer(.notModified))
        await deliveries.next()
        #expect(deliveries.log == ["[0.2, 0.5] outcome"])
    }

    @Test("what is sent after a delivery ran gets a hop of its own")
    func laterSendsHopAgain() async {
        let deliveries = Deliveries()
        let handoff = MainActorHandoff { deliveries.record($0, $1) }
        handoff.send(progress: 0.3)
        await deliveries.next()
        handoff.send(outcome: UncheckedTransfer(.notModified))
        await deliveries.next()
        #expect(deliveries.log == ["[0.3] -", "[] outcome"])
    }

}
