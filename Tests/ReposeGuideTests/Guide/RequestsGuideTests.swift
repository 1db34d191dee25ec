import Foundation
import Repose
import ReposeTesting
import Testing

@testable import ReposeTestSupport

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
        await waitUntil { !requestsGuidePrinted.isEmpty }  // hooks fire asynchronously
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
        await waitUntil { network.requests.count >= 3 }  // the reload, started once the PUT succeeded
        _ = await profile.loadRequests.first?.response
        #expect(network.requests.map(\.method) == [.put, .patch, .get])
        #expect(profile.jsonDict["name"] as? String == "Ada")
    }

    @Test("one-off headers go the same way, as headers:, on a body helper, a load and an optimistic write")
    func oneOffHeaders() async {
        network.stub(.put, "https://api.example.com/avatar", status: 204)
        network.stub(.get, "https://api.example.com/user", json: ["name": "Ada"])
        network.stub(.patch, "https://api.example.com/notes/1", status: 204)
        network.stub(.get, "https://api.example.com/notes/1", json: ["text": "Milk"])
        let (avatar, user, note) = (
            service.resource("/avatar"), service.resource("/user"), service.resource("/notes/1")
        )
        RequestsGuide.oneOffHeaders(avatar, user: user, note: note, png: Data([1]), etag: "\"v1\"")
        for request in avatar.allRequests + user.allRequests + note.allRequests { _ = await request.response }
        let sent = { (method: RequestMethod) in self.network.requests.first { $0.method == method } }
        #expect(sent(.put)?.header("X-Visibility") == "public")
        #expect(sent(.put)?.header("Content-Type") == "image/png")
        #expect(sent(.get)?.header("X-Debug") == "1")
        #expect(sent(.patch)?.header("If-Match") == "\"v1\"")
        #expect(sent(.patch)?.header("Content-Type") == "application/json")
        #expect(user.jsonDict["name"] as? String == "Ada")
    }

    @Test("a one-off Content-Type beats the body helper's, on a request and on a write alike")
    func oneOffContentType() async {
        network.stub(.patch, "https://api.example.com/notes/1", status: 204)
        network.stub(.get, "https://api.example.com/notes/1", json: ["text": "Milk"])
        let note = service.resource("/notes/1")
        let type = ["content-type": "application/merge-patch+json"]
        _ = await note.request(.patch, json: ["text": "Milk"], headers: type).response
        _ = await note.request(.patch, json: ["text": "Milk"], headers: type).response
        let patches = network.requests.filter { $0.method == .patch }
        #expect(patches.map { $0.header("Content-Type") } == Array(repeating: "application/merge-patch+json", count: 2))
    }

    @Test("a request of the app's own, loaded into the resource without the network")
    func customRequest() async {
        let vault = service.resource("/vault")
        RequestsGuide.customRequest(vault)
        _ = await vault.loadRequests.first?.response
        #expect(vault.text == "secret")
        #expect(network.requests.isEmpty)
    }

    @Test("Q1 Q2 the page's prefetch waits behind what is shown, and a shown row's load moves up while it waits")
    func prefetchRecipe() async {
        let held = ManualNetwork()
        let api = Service(
            baseURL: "https://api.example.com",
            options: .init(networking: held, reconnected: nil, becameActive: nil, limits: RequestLimits(total: 1)))
        LifetimeCheck.track(api)
        #expect(RequestsGuide.limits().resource("/x").url.host == "api.example.com")
        let (prefetch, show) = RequestsGuide.prefetching(api)
        prefetch((1...3).map { RequestsGuide.Row(detailPath: "/rows/\($0)") })
        let cell = RequestsGuide.Cell()
        show(RequestsGuide.Row(detailPath: "/rows/3"), cell)
        for _ in 0..<3 { await held.respond(status: 200, contentType: "text/plain", text: "detail") }
        #expect(held.sent.map(\.url) == ["/rows/1", "/rows/3", "/rows/2"].map { "https://api.example.com" + $0 })
        #expect(cell.updates > 0)
    }
}
