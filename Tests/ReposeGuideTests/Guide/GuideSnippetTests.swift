import Foundation
import ReposeTesting
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// Every Swift block of these guide pages has a compiled twin: the page's code cannot drift from what compiles.
@Suite("Guide snippets", .checksLifetimes)
struct GuideSnippetTests {
    /// The guide pages whose Swift blocks are compiled: `Docs/<Page>.md` has its twin in
    /// `Tests/ReposeGuideTests/Guide/<Page>Guide.swift`.
    static let pages = [
        "Behavior", "Caching", "Configuration", "FirstServer", "Freshness", "Inspector", "Lists", "LiveResources",
        "Logging", "Memory", "MigratingFromSiesta", "Writes", "Networking", "Observers", "Pipeline", "Requests",
        "ResourceState", "Security", "ServicesAndResources", "Signals", "Testing", "TypedContent",
        "Metrics", "Downloads", "Streaming",
    ]

    @MainActor
    @Test("every Swift block of a guide page is compiled in its twin", arguments: pages)
    func snippetsHaveCompiledTwins(page: String) throws {
        let root = ReadmeTests.packageRoot
        let markdown = try String(contentsOf: root.appendingPathComponent("Docs/\(page).md"), encoding: .utf8)
        let twin = "Tests/ReposeGuideTests/Guide/\(page)Guide.swift"
        let code = try String(contentsOf: root.appendingPathComponent(twin), encoding: .utf8)
        let blocks = ReadmeTests.swiftBlocks(in: markdown)
        #expect(!blocks.isEmpty, "\(page).md has no Swift block")
        for block in blocks {
            #expect(
                ReadmeTests.normalized(code).contains(ReadmeTests.normalized(block)),
                "a block of \(page).md is not in \(twin):\n\(block)")
        }
    }

    /// The guide's screen on a stub network that knows a user.
    @MainActor
    private func screen() -> (SignalsGuideScreen, StubNetworkingProvider) {
        let network = StubNetworkingProvider()
        network.stub(.get, "https://api.example.com/users/ada", json: ["name": "Ada"])
        network.stub(.get, "https://api.example.com/users/ada/repos", json: [["name": "engine"]])
        let api = Service(baseURL: "https://api.example.com", options: .init(networking: network))
        LifetimeCheck.track(api)
        return (SignalsGuideScreen(api: api), network)
    }

    @MainActor
    @Test("S1 the Signals guide's screen fills its labels, and is freed with its observations when dropped")
    func signalsScreen() async {
        var (screen, network): (SignalsGuideScreen?, StubNetworkingProvider) = screen()
        _ = screen?.oneResource()
        let user = screen?.api.resource("/users/ada")
        _ = await user?.load().response
        #expect(screen?.nameLabel.text == "Ada")
        #expect(screen?.spinner.isHidden == true)
        weak let weakScreen = screen
        screen = nil
        #expect(weakScreen == nil)
        _ = network
    }

    @MainActor
    @Test("the Signals guide's group drives the screen, which keeps the group and is still freed")
    func groupScreen() async throws {
        var (screen, _): (SignalsGuideScreen?, StubNetworkingProvider) = screen()
        let api = try #require(screen?.api)
        screen?.group(user: api.resource("/users/ada"), repositories: api.resource("/users/ada/repos"))
        #expect(screen?.shown == ["placeholder", "spinner", "spinner"])
        _ = await api.resource("/users/ada").loadRequests.first?.response
        _ = await api.resource("/users/ada/repos").loadRequests.first?.response
        #expect(screen?.shown.last == "content")
        weak let weakScreen = screen
        screen = nil
        #expect(weakScreen == nil)
    }

    @MainActor
    @Test("X3 the Signals guide's search keeps the previous results on screen, dimmed, while the next query loads")
    func searchKeepsPrevious() async {
        let network = StubNetworkingProvider()
        let scheduler = TestScheduler(now: .seconds(1000))
        network.stub(.get, "https://api.example.com/search?q=sie", json: [["name": "Siesta"]])
        let next = network.stub(.get, "https://api.example.com/search?q=sies", json: [["name": "Siesta 2"]]).held()
        let api = Service(baseURL: "https://api.example.com", options: .init(networking: network, scheduler: scheduler))
        LifetimeCheck.track(api)
        let screen = SignalsGuideScreen(api: api)
        let results = screen.search(scheduler: scheduler)
        screen.showResults(results)
        scheduler.advance(by: .milliseconds(300))
        _ = await api.resource("/search").withParam("q", "sie").loadRequests.first?.response
        #expect(screen.list.items.count == 1 && screen.list.alpha == 1)
        screen.query?.value = "sies"
        scheduler.advance(by: .milliseconds(300))
        await next.requested()
        #expect(screen.list.items.count == 1 && screen.list.alpha == 0.5 && !screen.spinner.isHidden)
        next.release()
        _ = await api.resource("/search").withParam("q", "sies").loadRequests.first?.response
        #expect(screen.list.alpha == 1 && screen.spinner.isHidden)
        // X3 amended: a query that fails keeps the previous results on screen, dimmed, beside the error.
        network.stub(.get, "https://api.example.com/search?q=siesx", status: 500, json: ["error": "down"])
        screen.query?.value = "siesx"
        scheduler.advance(by: .milliseconds(300))
        _ = await api.resource("/search").withParam("q", "siesx").loadRequests.first?.response
        #expect(screen.list.items.count == 1 && screen.list.alpha == 0.5 && screen.errorLabel.text != nil)
    }

    @MainActor
    @Test("S15 the Signals guide's sign-up model submits the form as it is when tapped, and only a valid one")
    func signUpSubmits() async {
        let network = StubNetworkingProvider()
        network.stub(.post, "https://api.example.com/signups", status: 201)
        let api = Service(baseURL: "https://api.example.com", options: .init(networking: network))
        LifetimeCheck.track(api)
        var model: SignUpModel? = SignUpModel(api: api)
        model?.email.value = "ada@example.com"
        model?.submitTapped()
        #expect(model?.submitted.isEmpty == true)
        model?.password.value = "analytical"
        model?.password.value = "analytical engine"
        #expect(model?.submitted.isEmpty == true)
        model?.submitTapped()
        #expect(model?.submitted.count == 1)
        _ = await model?.submitted.first?.response
        let body = network.requests.first?.body.flatMap { String(data: $0, encoding: .utf8) } ?? ""
        #expect(body.contains("analytical engine"))
        weak let weakModel = model
        model = nil
        #expect(weakModel == nil)
    }

    @MainActor
    @Test("S21 the Signals guide's screen shows what a stream sends, and is freed with its observation when dropped")
    func asyncSequenceScreen() async {
        var (screen, _): (SignalsGuideScreen?, StubNetworkingProvider) = screen()
        let continuation = screen?.asyncSequence()
        // The stream's task delivers on the main actor: yield it turns, boundedly, rather than sleep.
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(60))
        while screen?.nameLabel.text != "Connected", clock.now < deadline { await Task.yield() }
        #expect(screen?.nameLabel.text == "Connected")
        weak let weakScreen = screen
        screen = nil
        #expect(weakScreen == nil)
        continuation?.finish()
    }

    @Test("S1 the Memory page's trap keeps its owner alive, and its fix frees it")
    func memoryPage() {
        let name = MutableState("Ada")
        var leaking: MemoryGuideModel? = MemoryGuideModel()
        var bound: MemoryGuideModel? = MemoryGuideModel()
        leaking?.leak(name.state)
        bound?.bind(name.state)
        #expect(bound?.name == "Ada")
        weak let weakLeaking = leaking
        weak let weakBound = bound
        leaking = nil
        bound = nil
        #expect(weakLeaking != nil)
        #expect(weakBound == nil)
    }

    @MainActor
    @Test("the migration page's screen shows the profile through both observers, and is freed when dropped")
    func migrationScreen() async {
        let network = StubNetworkingProvider()
        network.stub(.get, "https://api.example.com/profile", json: ["name": "Ada"])
        let api = Service(baseURL: "https://api.example.com", options: .init(networking: network))
        LifetimeCheck.track(api)
        var screen: MigrationGuideScreen? = MigrationGuideScreen(api: api)
        screen?.appear()
        _ = await api.resource("/profile").loadRequests.first?.response
        #expect(screen?.shown.last?["name"] as? String == "Ada")
        #expect(screen?.shown.filter { $0["name"] as? String == "Ada" }.count == 2)
        weak let weakScreen = screen
        screen = nil
        #expect(weakScreen == nil)
    }
}
