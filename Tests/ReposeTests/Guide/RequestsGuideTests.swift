import Foundation
import Repose
import ReposeTesting
import Testing

@MainActor
@Suite("The examples of the requests page", .checksLifetimes, .serialized)
struct RequestsGuideTests {
    let network = StubNetworkingProvider()
    let service: Service

    init() {
        service = Service(baseURL: "https://api.example.com", options: .init(networking: network))
        LifetimeCheck.track(service)
        requestsGuidePrinted = []
    }

    @Test("text with no form in the encoding fails the request before anything is sent")
    func unencodable() async {
        let resource = service.resource("/notes")
        RequestsGuide.unencodable(resource)
        for request in resource.allRequests { _ = await request.response }
        for _ in 0..<100 where requestsGuidePrinted.isEmpty { await Task.yield() }  // hooks fire asynchronously
        #expect(requestsGuidePrinted == ["true"])
        #expect(network.requests.isEmpty)
    }

    @Test("a PUT reloads the resource when it succeeds; a PATCH patches the local copy")
    func updateThenReload() async {
        network.stub(.put, "https://api.example.com/profile", status: 204)
        network.stub(.patch, "https://api.example.com/profile", status: 204)
        network.stub(.get, "https://api.example.com/profile", json: ["name": "Ada"])
        let profile = service.resource("/profile")
        RequestsGuide.updates(profile)
        for request in profile.allRequests { _ = await request.response }
        for _ in 0..<100 where profile.loadRequests.isEmpty { await Task.yield() }
        _ = await profile.loadRequests.first?.response
        #expect(network.requests.map(\.method) == [.put, .patch, .get])
        #expect(profile.jsonDict["name"] as? String == "Ada")
    }

    @Test("a request of the app's own, loaded into the resource without the network")
    func customRequest() async {
        let vault = service.resource("/vault")
        RequestsGuide.customRequest(vault)
        _ = await vault.loadRequests.first?.response
        #expect(vault.text == "secret")
        #expect(network.requests.isEmpty)
    }
}
