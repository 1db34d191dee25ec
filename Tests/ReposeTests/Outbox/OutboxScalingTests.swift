import Foundation
import Testing

@testable import Repose

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Queuing, publishing the status and draining n writes cost O(n) in all (rule T4), counted rather than timed: the
/// outbox walks all its entries a bounded number of times, whatever n, instead of once per change.
@MainActor
@Suite("The outbox's work is linear", .checksLifetimes, .timeLimit(.minutes(1)))
struct OutboxScalingTests {
    /// A network that accepts every request at once.
    struct AcceptingNetwork: NetworkingProvider {
        struct Task: NetworkingTask {
            func cancel() {}
        }

        func startRequest(
            _ request: URLRequest, progress: @escaping @Sendable (TransferProgress) -> Void,
            completion: @escaping @Sendable (Result<NetworkResponse, any Error>) -> Void
        ) -> any NetworkingTask {
            DispatchQueue.global().async { completion(.success(NetworkResponse(statusCode: 204))) }
            return Task()
        }
    }

    @Test("T4 queuing and draining n writes walks the outbox a bounded number of times", arguments: [1, 37])
    func boundedWalks(resources: Int) async {
        for count in [20, 80] {  // few: each answer waits for a main-actor turn, which every suite shares
            let service = Service(
                baseURL: "https://api.example.com",
                options: .init(networking: AcceptingNetwork(), reconnected: nil, becameActive: nil))
            service.configure("/notes/**") { $0.usesOutbox = true }
            let notes = (0..<resources).map { service.resource("/notes/\($0)") }
            var requests: [Request] = []
            for index in 0..<count {
                requests.append(notes[index % resources].mutate(.post, json: ["i": index]))
            }
            await service.outbox.idle()
            #expect(service.outbox.status.isEmpty)
            for request in requests { #expect(request.state == .completed) }
            // One walk to build the status above; none per write.
            #expect(service.outbox.book.walks <= 2, "\(count) writes, \(resources) resources")
        }
    }

    @Test("T4 a status observer gets a new status at each change, and no walk happens without one")
    func observedStatus() async {
        let service = Service(
            baseURL: "https://api.example.com",
            options: .init(networking: AcceptingNetwork(), reconnected: nil, becameActive: nil))
        service.configure("/notes/**") { $0.usesOutbox = true }
        var counts: [Int] = []
        let subscription = service.outbox.state.observe { counts.append($0.pending.count) }
        service.resource("/notes/1").mutate(.post, json: ["i": 1])
        service.resource("/notes/2").mutate(.post, json: ["i": 2])
        await service.outbox.idle()
        #expect(counts.first == 0 && counts.last == 0 && counts.max() == 2)
        subscription.cancel()
    }
}
