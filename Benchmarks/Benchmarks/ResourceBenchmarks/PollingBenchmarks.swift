import Benchmark
import Foundation
import Repose
import ReposeTesting

// What polling costs: 10,000 observed resources with `refreshInterval` set, on a virtual clock. Between due times
// the service's scheduler holds one piece of work for all of them, so time passing costs what the scheduler's own
// check costs; at the due time every resource starts its load. The figures are in Docs/Performance.md.
func pollingBenchmarks() {
    let count = isSmokeRun ? 100 : 10_000
    mainActorBenchmark("Polling \(count) resources, time passing between due times (per advance)", configuration(.kilo))
    {
        measured in
        let fixture = PollingFixture(count: count)
        measured.start()
        for _ in measured.iterations { fixture.clock.advance(by: .milliseconds(1)) }  // never reaches the due time
        measured.stop()
        fixture.end()
    }
    mainActorBenchmark("Polling \(count) resources, one due time (per batch)", configuration(.one, seconds: 3)) {
        measured in
        let fixture = PollingFixture(count: count)
        measured.start()
        fixture.clock.advance(by: .seconds(60))  // every resource starts its load
        await fixture.network.idle()
        measured.stop()
        fixture.end()
    }
}

/// A service on a virtual clock whose resources all have fresh data, an observer and a poll due in 60 s.
@MainActor
private final class PollingFixture {
    let clock = TestScheduler(now: .seconds(1_000))
    let network = stubProvider()
    let service: Service
    let resources: [Resource]
    private let owner = NSObject()

    init(count: Int) {
        service = Service(baseURL: baseURL, options: .init(networking: network, scheduler: clock))
        service.cachedResourceCountLimit = count * 2
        service.configure { $0.refreshInterval = 60 }
        let service = service
        resources = paths(count).map { service.resource($0) }
        for resource in resources {
            resource.overrideLocalContent(with: "fresh")
            resource.addObserver(owner: owner) { _, _ in }
        }
    }

    func end() {
        for resource in resources {
            resource.removeObservers(ownedBy: owner)
        }
    }
}
