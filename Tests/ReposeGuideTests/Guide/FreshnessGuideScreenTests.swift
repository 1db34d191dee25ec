import Foundation
import ReposeTesting
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// The freshness guide's examples of stale state, polling and reconnect, run on virtual time.
@MainActor
@Suite("The freshness guide's screens", .checksLifetimes)
struct FreshnessGuideScreenTests {
    let network = StubNetworkingProvider()
    let scheduler = TestScheduler(now: .seconds(36_000))  // 10:00 on the first day
    let api: Service

    init() {
        api = Service(baseURL: "https://api.example.com", options: .init(networking: network, scheduler: scheduler))
        LifetimeCheck.track(api)
    }

    @Test("R7 the guide's banner says offline with the data's time once the data is stale and a load failed")
    func staleBanner() async {
        network.stub(
            .get, "https://api.example.com/profile", responses: [.json(["name": "Ada"]), .text("down", status: 503)])
        let profile = api.resource("/profile")
        _ = await profile.load().response
        let screen = FreshnessGuideScreen()
        screen.show(profile)
        #expect(screen.banner == nil)
        scheduler.advance(by: .seconds(42 * 60))
        _ = await profile.load().response
        #expect(screen.banner == "Offline, showing data from 10:00")
    }

    @Test("R6 R8 the guide's polling configuration and reconnect signal compile and apply")
    func pollingAndReconnect() {
        FreshnessGuide.polling(api: api)
        #expect(api.resource("/notifications").configuration.refreshInterval == 60)
        let other = FreshnessGuide.reconnect()
        #expect(other.baseURL?.absoluteString == "https://api.example.com/")
    }
}
