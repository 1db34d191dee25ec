// The Swift block of Docs/Behavior.md, verbatim: GuideSnippetTests checks that it appears here. The page shows how
// a test names the rule it keeps; this is such a test, and it runs.
import Repose
import ReposeTesting
import Testing

@testable import ReposeTestSupport

@MainActor
@Suite("The behaviour page's rule-naming example", .checksLifetimes)
struct BehaviorGuideTests {
    @Test("A20 loadIfNeeded returns the load already in flight, starting nothing")
    func loadIfNeededReturnsTheLoadInFlight() async {
        let network = StubNetworkingProvider()
        let route = network.stub(.get, "https://api.example.com/users/42", json: ["name": "Ada"]).held()
        let service = Service(baseURL: "https://api.example.com", options: .init(networking: network))
        LifetimeCheck.track(service)
        let user = service.resource("/users/42")

        let load = user.load()
        #expect(user.loadIfNeeded() === load)
        await route.requested()
        route.release()
        _ = await load.response
        #expect(network.requests.count == 1)
    }
}
