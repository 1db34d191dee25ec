import Foundation
import Repose
import ReposeTesting
import Testing

@testable import ReposeTestSupport

@MainActor
@Suite("The lists page's screens", .checksLifetimes)
struct ListsGuideScreenTests {
    let network = StubNetworkingProvider()
    let service: Service

    init() {
        network.stub(.get, "https://api.example.com/users/ada/repos", json: [["id": 1, "name": "engine"]])
        service = Service(baseURL: "https://api.example.com", options: .init(networking: network))
        LifetimeCheck.track(service)
    }

    @Test("L3 the page's screen keeps its list, which shows the first page, and both are freed with the screen")
    func screenKeepsItsList() async {
        var screen: ListsGuide.ReposScreen? = ListsGuide.ReposScreen(service: service)
        _ = await service.resource("/users/ada/repos").loadRequests.first?.response
        #expect(screen?.repos.state.value.items.map(\.name) == ["engine"])
        weak let weakScreen = screen
        weak let weakList = screen?.repos
        screen = nil
        #expect(weakScreen == nil)
        #expect(weakList == nil)
    }

    @Test("the page's group screen shows the content and the count, and its group goes with it")
    func groupScreen() async {
        network.stub(.get, "https://api.example.com/users/ada", json: ["name": "Ada"])
        let user = service.resource("/users/ada")
        let repositories = service.resource("/users/ada/repos")
        var screen: ListsGuideGroupScreen? = ListsGuideGroupScreen()
        screen?.show(user: user, repositories: repositories)
        _ = await user.load().response
        _ = await repositories.load().response
        #expect(screen?.shown.last == "content")
        #expect(screen?.progress.text == "2 of 2")
        weak let weakGroup = screen?.group
        screen = nil
        #expect(weakGroup == nil)
    }
}
