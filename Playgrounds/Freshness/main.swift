// Freshness: how long data stays fresh, and what brings it back, as timelines on a virtual clock.
// Run it with `swift run Freshness`. No network and no waiting: a StubNetworkingProvider answers, and a
// TestScheduler is the service's clock, moved forward by hand. An app leaves both out.
import Foundation
import Repose
import ReposeTesting

/// One story: a service on its own virtual clock, and a way to print what happens at what time.
@MainActor
final class Timeline {
    let clock = TestScheduler(now: .seconds(1_000_000))
    let network = StubNetworkingProvider()
    let service: Service
    private let start: Duration
    private var showsRequests = false
    private var printedRequests = 0

    init(_ title: String, reconnected: Signal<Void>? = nil) {
        print("\n== \(title)")
        start = clock.now
        service = Service(
            baseURL: "https://api.example.com",
            options: .init(networking: network, scheduler: clock, reconnected: reconnected))
    }

    /// Prints `text` at the current virtual time, in seconds since the story began.
    func say(_ text: String) {
        print("  t=\((clock.now - start).components.seconds)s".padding(toLength: 9, withPad: " ", startingAt: 0) + text)
    }

    /// Moves the clock to `seconds` after the story began, running whatever falls due on the way, and prints the
    /// requests that went out meanwhile.
    func at(_ seconds: Int64) async {
        clock.advance(by: start + .seconds(seconds) - clock.now)
        await settle()
    }

    /// Lets the stub network answer, then prints the requests sent since the last time.
    func settle() async {
        await network.idle()
        guard showsRequests else { return }
        for request in network.requests.dropFirst(printedRequests) {
            say("→ \(request.httpMethod) \(request.url)")
        }
        printedRequests = network.requests.count
    }

    /// Calls `loadIfNeeded()` and says whether it went to the network.
    func loadIfNeeded(_ resource: Resource) async {
        if let request = resource.loadIfNeeded() {
            let response = await request.response
            say("loadIfNeeded → loads: \(response.entity?.text ?? response.error?.userMessage ?? "")")
        } else {
            say("loadIfNeeded → no request")
        }
    }

    /// Prints every request sent from now on, at the next ``settle()``.
    func showRequests() {
        showsRequests = true
        printedRequests = network.requests.count
    }
}

@MainActor
func fixedTimers() async {
    let story = Timeline("Fixed timers: data is fresh for expirationTime (30 s by default)")
    story.network.stub(.get, "https://api.example.com/news", text: "today's news")
    let news = story.service.resource("/news")
    await story.loadIfNeeded(news)
    await story.at(10)
    await story.loadIfNeeded(news)
    await story.at(30)
    await story.loadIfNeeded(news)
}

@MainActor
func httpHeaders() async {
    let story = Timeline("HTTP freshness: the server's Cache-Control decides (freshness = .fromHTTPHeaders)")
    story.service.configure { $0.freshness = .fromHTTPHeaders }
    story.network.stub(
        .get, "https://api.example.com/weather", headers: ["Cache-Control": "max-age=120"], text: "sunny")
    story.network.stub(.get, "https://api.example.com/scores", headers: ["Cache-Control": "no-cache"], text: "2:1")
    let weather = story.service.resource("/weather")
    let scores = story.service.resource("/scores")
    await story.loadIfNeeded(weather)
    await story.loadIfNeeded(scores)
    await story.at(60)
    await story.loadIfNeeded(weather)
    await story.loadIfNeeded(scores)  // no-cache: stale at once, so every call revalidates
    await story.at(120)
    await story.loadIfNeeded(weather)
}

@MainActor
func retryAfter() async {
    let story = Timeline("Retry-After: a busy server says when to come back")
    story.network.stub(
        .get, "https://api.example.com/report",
        responses: [.text("busy", status: 503, headers: ["Retry-After": "60"]), .text("the report")])
    let report = story.service.resource("/report")
    await story.loadIfNeeded(report)
    await story.at(5)  // retryTime (1 s) is long past, but the server asked for 60
    await story.loadIfNeeded(report)
    await story.at(60)
    await story.loadIfNeeded(report)
}

@MainActor
func retries() async {
    let story = Timeline("Retries: one request, three attempts, waits of 1 s then 2 s; observers see one outcome")
    story.service.configure { $0.retryPolicy = RetryPolicy(maximumAttempts: 3, baseDelay: 1, jitter: 0) }
    story.network.stub(
        .get, "https://api.example.com/flaky",
        responses: [.text("oops", status: 502), .text("oops", status: 502), .text("third time lucky")])
    story.showRequests()
    let flaky = story.service.resource("/flaky")
    let owner = NSObject()
    flaky.addObserver(owner: owner) { resource, event in
        if event != .observerAdded { story.say("observer: \(event)") }
    }
    flaky.load()
    await story.settle()
    await story.at(1)
    await story.at(3)
    story.say("latest data: \(flaky.text)")
    flaky.removeObservers(ownedBy: owner)
}

@MainActor
func polling() async {
    let story = Timeline("Polling: refreshInterval = 10, only while observed")
    story.service.configure { $0.refreshInterval = 10 }
    story.network.stub(.get, "https://api.example.com/inbox", text: "3 unread")
    story.showRequests()
    let inbox = story.service.resource("/inbox")
    var subscription: Subscription? = inbox.state.observe { _ in }
    story.say("a screen observes the inbox")
    await story.settle()
    await story.at(10)
    await story.at(20)
    subscription?.cancel()
    subscription = nil
    story.say("the screen goes away")
    await story.at(60)
    story.say("(no polls while nobody watches)")
}

@MainActor
func staleState() async {
    let story = Timeline("Stale state: the state says when its data turns stale, without any load")
    story.network.stub(.get, "https://api.example.com/prices", text: "€12")
    let prices = story.service.resource("/prices")
    _ = await prices.load().response
    let owner = NSObject()
    prices.state.observe(owner: owner) { state in
        story.say("state: \(state.text), \(state.isStale ? "stale: show \"refreshing…\"" : "fresh")")
    }
    await story.at(29)
    await story.at(31)
    withExtendedLifetime(owner) {}
}

@MainActor
func reconnect() async {
    let connectivity = SignalSource<Void>()
    let story = Timeline(
        "Reconnect: the network comes back, stale data on screen loads", reconnected: connectivity.signal)
    story.network.stub(.get, "https://api.example.com/feed", text: "the feed")
    let feed = story.service.resource("/feed")
    _ = await feed.load().response
    let owner = NSObject()
    feed.addObserver(owner: owner) { _, _ in }
    story.showRequests()
    await story.at(45)
    story.say("the network comes back")
    connectivity.send(())
    await story.settle()
    withExtendedLifetime(owner) {}
}

@MainActor
func authentication() async {
    let story = Timeline("Authentication: ten requests answered 401 share one refresh")
    let auth = Authenticator(credential: "expired") { service in
        let reply = try await service.resource("/token").request(.post).content(as: String.self)
        story.say("refresh answered with a new token")
        return reply
    }
    story.service.configure { $0.authenticator = auth }
    story.network.stub(.post, "https://api.example.com/token", text: "fresh")
    for index in 1...10 {
        let url = "https://api.example.com/items/\(index)"
        story.network.stub(StubMatcher(.get, url).header("Authorization", "Bearer expired"), .status(401))
        story.network.stub(StubMatcher(.get, url).header("Authorization", "Bearer fresh"), .text("item \(index)"))
    }
    let loads = (1...10).map { story.service.resource("/items/\($0)").load() }
    var succeeded = 0
    for load in loads where await load.response.entity != nil {
        succeeded += 1
    }
    let refreshes = story.network.requests.filter { $0.url.hasSuffix("/token") }.count
    story.say("\(succeeded) of \(loads.count) loads succeeded, after \(refreshes) refresh")
}

@MainActor
func tour() async {
    await fixedTimers()
    await httpHeaders()
    await retryAfter()
    await retries()
    await polling()
    await staleState()
    await reconnect()
    await authentication()
}

await tour()
