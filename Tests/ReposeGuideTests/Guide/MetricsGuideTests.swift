import Foundation
import ReposeTesting
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// The Metrics page's recipes, run on a stub network.
@MainActor
@Suite("The Metrics page's code", .checksLifetimes)
struct MetricsGuideTests {
    let network = StubNetworkingProvider()
    let api: Service

    init() {
        network.stub(.get, "https://api.example.com/api/users", json: ["name": "Ada"])
        network.stub(.get, "https://api.example.com/other", json: ["name": "Ada"])
        api = Service(baseURL: "https://api.example.com", options: .init(networking: network))
        LifetimeCheck.track(api)
    }

    @Test("X1 the metrics-system recipe counts the requests under /api, and is freed with its monitor when dropped")
    func networkStatsFreed() async {
        var stats: NetworkStats? = NetworkStats(api: api)
        _ = await api.resource("/api/users").load().response
        _ = await api.resource("/other").load().response
        #expect(stats?.inFlight == 0)
        #expect(stats?.durations.keys.sorted() == ["/api/users"])
        #expect(stats?.bytes ?? 0 > 0)
        weak let weakStats = stats
        stats = nil
        #expect(weakStats == nil)
        let load = api.resource("/api/users").load()
        #expect((load.delegate as? NetworkRequest)?.isMeasuring == false)
        _ = await load.response
        #expect(api.core.monitors.isListening == false)
    }

    @Test("X1 the first recipe's screen is freed with its monitor when dropped")
    func searchScreenFreed() async {
        var screen: SearchScreen? = SearchScreen(api: api)
        #expect(api.core.monitors.isListening)
        weak let weakScreen = screen
        screen = nil
        #expect(weakScreen == nil)
        #expect(api.core.monitors.isListening == false)
        _ = screen
    }
}
