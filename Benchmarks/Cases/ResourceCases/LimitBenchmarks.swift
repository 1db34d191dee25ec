import Foundation
import Repose

// What the service's queue costs (rules Q1, Q2), at 1,000 and 10,000 loads of distinct resources made at once behind
// a per-host cap of 6: making them (each beyond the cap enters a host's heap), and all of them through the cap to
// their ends (each end starts the next). The network answers at once, so the figures are the queue's and the loads'
// own work; per load they should stay near flat from 1,000 to 10,000 (O(log n) each).
func limitBenchmarks() {
    for loads in isSmokeRun ? [100] : [1_000, 10_000] {
        mainActorBenchmark(
            "Limits: queue \(loads) loads behind a cap of 6 (per batch)", configuration(.one, seconds: 3)
        ) {
            measured in
            let fixture = CappedLoads(loads)
            var requests: [Request] = []
            await measured.run { requests = fixture.loadAll() }
            await fixture.finish(requests)
        }
        mainActorBenchmark("Limits: \(loads) loads through a cap of 6 (per batch)", configuration(.one, seconds: 3)) {
            measured in
            let fixture = CappedLoads(loads)
            await measured.runTask { await fixture.finish(fixture.loadAll()) }
        }
    }
}

/// A service with a per-host cap of 6 over a network that answers every request at once, and `count` resources.
@MainActor
private final class CappedLoads {
    let service: Service
    let resources: [Resource]

    init(_ count: Int) {
        let network = InstantNetwork()
        network.isOffline = false
        let service = Service(
            baseURL: "https://api.example.com",
            options: .init(
                networking: network, reconnected: nil, becameActive: nil,
                limits: RequestLimits(perHost: 6)))
        service.cachedResourceCountLimit = count + 100
        resources = (0..<count).map { service.resource("/items/\($0)") }
        self.service = service
    }

    func loadAll() -> [Request] {
        resources.map { $0.load() }
    }

    func finish(_ requests: [Request]) async {
        for request in requests { _ = await request.response }
    }
}
