import Foundation
import ReposeTesting
import Testing

@testable import Repose
@testable import ReposeTestSupport

@MainActor
@Suite("The typed content guide", .checksLifetimes)
struct TypedContentGuideTests {
    typealias User = TypedContentGuideScreen.User

    let network = StubNetworkingProvider()
    let screen: TypedContentGuideScreen

    init() {
        let api = Service(baseURL: "https://api.example.com", options: .init(networking: network))
        LifetimeCheck.track(api)
        screen = TypedContentGuideScreen(api: api)
    }

    @Test("F21 A9 typed accessors read nothing before a load, then the model and a header in any case")
    func accessors() async {
        network.stub(.get, "https://api.example.com/users/ada", headers: ["ETag": "\"v7\""], json: ["name": "Ada"])
        let user = screen.readContent()
        #expect(screen.read?.model == nil && screen.read?.name == "…" && screen.read?.etag == nil)
        _ = await user.load().response
        _ = screen.readContent()
        #expect(screen.read?.model == User(name: "Ada"))
        #expect(screen.read?.name == "Ada")
        #expect(screen.read?.etag == "\"v7\"")
    }

    @Test("typed states show the model, and the owner-receiving observer fills the title")
    func states() async {
        network.stub(.get, "https://api.example.com/users/ada", json: ["name": "Ada"])
        let user = screen.readContent()
        screen.readState(user)
        #expect(screen.title == "")
        #expect(screen.states[2].value.content == nil)
        _ = await user.load().response
        #expect(screen.title == "Ada")
        #expect(screen.states[1].value.content == User(name: "Ada"))
    }

    @Test("a typed throw in a Task: the model on success, the RequestError's message on failure")
    func typedThrows() async {
        network.stub(.get, "https://api.example.com/users/ada", json: ["name": "Ada"])
        let user = screen.readContent()
        await screen.refresh(user).value
        network.stub(.get, "https://api.example.com/users/ada", status: 404, json: ["message": "gone"])
        await screen.refresh(user).value
        #expect(screen.shown == ["user Ada", "banner Not found"])
    }
}
