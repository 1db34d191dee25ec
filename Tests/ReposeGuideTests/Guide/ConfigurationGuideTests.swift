import Foundation
import Repose
import ReposeTesting
import Testing

@testable import ReposeTestSupport

@MainActor
@Suite("The examples of the configuration page", .checksLifetimes)
struct ConfigurationGuideTests {
    let network = StubNetworkingProvider()
    let api: Service

    init() {
        network.stub(.get, "https://api.example.com/v1/profile", json: ["name": "Ada"])
        network.stub(.post, "https://api.example.com/v1/profile", status: 204)
        api = Service(baseURL: "https://api.example.com/v1", options: .init(networking: network))
        LifetimeCheck.track(api)
    }

    @Test("a value a configuration closure reads is seen after invalidateConfiguration(), and not before")
    func laziness() async {
        let session = ConfigurationGuide.Session()
        ConfigurationGuide.laziness(api, session: session, newToken: "new")
        let profile = api.resource("/profile")
        _ = await profile.load().response
        session.authorizationHeader = "Bearer newer"  // not invalidated: the resource keeps its configuration
        _ = await profile.load().response
        #expect(network.requests.map { $0.header("Authorization") } == ["Bearer new", "Bearer new"])
    }

    @Test("the per-method header goes with writes only")
    func perMethod() async {
        let session = ConfigurationGuide.Session()
        session.csrfToken = "t1"
        ConfigurationGuide.perMethod(api, session: session)
        let profile = api.resource("/profile")
        _ = await profile.load().response
        _ = await profile.request(.post, json: ["name": "Ada"]).response
        #expect(network.requests.map { $0.header("X-CSRF-Token") } == [nil, "t1"])
    }

    @Test("a mutator dates every request, and a decorator logs each failure with its resource")
    func mutatorAndDecorator() async {
        network.stub(.get, "https://api.example.com/v1/missing", status: 404)
        let log = ConfigurationGuide.Log()
        ConfigurationGuide.mutator(api, clock: ConfigurationGuide.Clock())
        ConfigurationGuide.decorator(api, log: log)
        _ = await api.resource("/missing").load().response
        for _ in 0..<100 where log.warnings.isEmpty { await Task.yield() }  // hooks fire asynchronously
        #expect(network.requests.first?.header("X-Sent-At") == ConfigurationGuide.Clock().nowAsHTTPDate)
        #expect(log.warnings == ["https://api.example.com/v1/missing: Not found"])
    }
}
