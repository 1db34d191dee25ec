import Foundation
import ReposeTesting
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// Making and sending n optimistic writes to one resource cost O(n) in all (rule T4), counted rather than timed:
/// how many times a change is applied to data, for n and for 2n writes.
@MainActor
@Suite("Optimistic writes to one resource cost linear work", .checksLifetimes, .timeLimit(.minutes(5)))
struct OptimisticScalingTests {
    /// Counts the applications of the changes it makes.
    final class Counter {
        var applications = 0

        func change(_ index: Int) -> OptimisticChange {
            .update { [self] content in
                applications += 1
                var list = content as? [String: Any] ?? [:]
                list["last"] = index
                return list
            }
        }
    }

    /// A service whose `/notes` accepts every write and answers a GET with the count of writes so far.
    func service(usesOutbox: Bool) -> (Service, StubNetworkingProvider) {
        let network = StubNetworkingProvider()
        network.stub(.get, "https://api.example.com/notes", json: ["last": -1])
        network.stub(StubMatcher(.post, "https://api.example.com/notes"), .status(204))
        let service = Service(
            baseURL: "https://api.example.com",
            options: .init(networking: network, reconnected: nil, becameActive: nil))
        LifetimeCheck.track(service)
        service.configure("/notes") { $0.usesOutbox = usesOutbox }
        return (service, network)
    }

    /// The applications that making and sending `count` writes to one observed resource took.
    func applications(writes count: Int, usesOutbox: Bool) async -> Int {
        let (service, network) = service(usesOutbox: usesOutbox)
        let notes = service.resource("/notes")
        let observer = RecordingObserver()
        notes.addObserver(observer)
        _ = await notes.load().response
        let counter = Counter()
        var writes: [Request] = []
        for index in 0..<count {
            writes.append(notes.request(.post, json: ["i": index], showing: counter.change(index)))
        }
        for write in writes { _ = await write.response }
        // The reload that confirms them starts at the end of a turn: its data replaces every change.
        for await state in notes.state.values where state.pendingChanges == 0 && !state.isLoading { break }
        // One reload confirms every write, where one per write would re-apply the changes still on their way.
        #expect(network.requests.filter { $0.httpMethod == "GET" }.count <= 3, "\(count) writes")
        return counter.applications
    }

    @Test(
        "T4 M2 n writes to one observed resource, sent at once or through the outbox, apply changes O(n) times",
        arguments: [false, true])
    func linearApplications(usesOutbox: Bool) async {
        // Small counts: a write through the outbox waits for a main-actor turn, which every suite shares. Applying
        // every change again at each step would take 20,100 and 80,200 applications here.
        let small = await applications(writes: 200, usesOutbox: usesOutbox)
        let large = await applications(writes: 400, usesOutbox: usesOutbox)
        #expect(large <= 2 * small + 20, "200 writes: \(small) applications; 400 writes: \(large)")
        #expect(large <= 3 * 400, "400 writes: \(large) applications")
    }
}
