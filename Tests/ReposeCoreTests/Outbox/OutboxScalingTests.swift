import Foundation
import ReposeTesting
import Testing

@testable import Repose
@testable import ReposeTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Queuing, publishing the status and draining n writes cost O(n) in all (rule T4), counted rather than timed: the
/// outbox walks all its entries a bounded number of times, whatever n, instead of once per change.
@MainActor
@Suite("The outbox's work is linear", .checksLifetimes, .hangLimit)
struct OutboxScalingTests {
    /// A network that accepts every write at once, as an app's test would script it.
    static func acceptingNetwork() -> StubNetworkingProvider {
        let network = StubNetworkingProvider()
        network.stub(StubMatcher(nil, label: "any request", where: { _ in true }), .status(204))
        return network
    }

    @Test("T4 queuing and draining n writes through a service walks the outbox a bounded number of times")
    func boundedWalks() async {
        // Many resources, so that few answers go in turn: each waits for a main-actor turn, which every suite shares.
        for count in [37, 148] {
            let service = Service(
                baseURL: "https://api.example.com",
                options: .init(networking: Self.acceptingNetwork(), reconnected: nil, becameActive: nil))
            service.configure("/notes/**") { $0.usesOutbox = true }
            let notes = (0..<37).map { service.resource("/notes/\($0)") }
            var requests: [Request] = []
            for index in 0..<count {
                requests.append(notes[index % notes.count].request(.post, json: ["i": index]))
            }
            await service.outbox.idle()
            #expect(service.outbox.status.isEmpty)
            for request in requests { #expect(request.state == .completed) }
            // One walk to build the status above; none per write.
            #expect(service.outbox.book.walks <= 2, "\(count) writes")
        }
    }

    @Test(
        "T4 n writes queued to one resource or many, then sent and ended in turn, cost a number of steps linear in n",
        arguments: [1, 10, 1_000])
    func linearSteps(resources: Int) {
        for count in [1_000, 10_000] {
            var book = OutboxBook()
            for index in 0..<count {
                let data = WriteData(
                    method: "POST", url: "https://api.example.com/notes/\(index % resources)", body: nil, headers: [:],
                    idempotencyKey: "k\(index)", createdAt: 0, changeTarget: nil, change: nil)
                book.append(OutboxEntry(data: data, sequence: index))
            }
            // Each resource's head goes, then the next, as answers arrive; every third write is withdrawn early.
            for index in stride(from: 0, to: count, by: 3) { book.remove("k\(index)") }
            var ended = 0
            for url in (0..<resources).map({ "https://api.example.com/notes/\($0)" }) {
                while let head = book.head(of: url) {
                    book.remove(head.key)
                    ended += 1
                }
            }
            #expect(book.isEmpty)
            #expect(ended == count - (count + 2) / 3)
            #expect(book.steps <= 6 * count, "\(count) writes to \(resources) resources: \(book.steps) steps")
            #expect(book.walks == 0)
        }
    }

    @Test("T4 a status observer gets a new status at each change, and no walk happens without one")
    func observedStatus() async {
        let service = Service(
            baseURL: "https://api.example.com",
            options: .init(networking: Self.acceptingNetwork(), reconnected: nil, becameActive: nil))
        service.configure("/notes/**") { $0.usesOutbox = true }
        var counts: [Int] = []
        let subscription = service.outbox.state.observe { counts.append($0.pending.count) }
        service.resource("/notes/1").request(.post, json: ["i": 1])
        service.resource("/notes/2").request(.post, json: ["i": 2])
        await service.outbox.idle()
        #expect(counts.first == 0 && counts.last == 0 && counts.max() == 2)
        subscription.cancel()
    }
}
