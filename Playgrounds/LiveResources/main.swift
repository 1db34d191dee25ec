// LiveResources: a server's event stream keeps resources current. Run it with `swift run LiveResources`. No network:
// a StubNetworkingProvider answers every request and plays the server's side of the stream; the service's clock is
// virtual, so the waits between reconnections pass at once.
import Foundation
import Repose
import ReposeTesting

func step(_ title: String) {
    print("\n== \(title)")
}

@MainActor
func tour() async {
    let network = StubNetworkingProvider()
    let clock = TestScheduler(now: .seconds(1_000))
    let service = Service(
        baseURL: "https://api.example.com",
        options: .init(networking: network, scheduler: clock, reconnected: nil, becameActive: nil))
    let server = network.stubEventStream("https://api.example.com/events")
    network.stub(
        .get, "https://api.example.com/repos/ada/engine",
        responses: [.json(["name": "engine", "stars": 213]), .json(["name": "engine", "stars": 214])])

    step("1. A repository on screen: an ordinary resource, loaded and observed")
    let repo = service.resource("/repos/ada/engine")
    let screen = NSObject()  // stands for the view that shows the repository and the feed
    repo.addObserver(owner: screen) { repo, event in
        print("  repo: \(event) → \(repo.jsonDict["stars"].map { "\($0)" } ?? "?") stars")
    }
    _ = await repo.load().response

    step("2. The live feed: say what each event type does, then observe the connection, which connects")
    let live = service.eventStream("/events")
        .on("star", .invalidate())  // data names a resource: it goes stale, and reloads if observed
        .on("repo", .replaceContent())  // data is the resource's new JSON, parsed by its pipeline
    let watching = live.connection.observe { print("  feed: \($0)") }
    print("  the stream asked with Accept: \(server.requests.last?.header("Accept") ?? "?")")
    await server.open()

    step("3. A `star` event names the repository: it reloads, and its observer hears an ordinary load")
    await server.send("event: star\nid: 1\ndata: {\"url\": \"/repos/ada/engine\"}\n\n")
    clock.advance(by: .zero)  // invalidated resources reload at the end of the turn
    _ = await repo.loadRequests.first?.response

    step("4. A `repo` event carries the new content: observers hear newData(eventStream), no request is sent")
    await server.send(
        "event: repo\nid: 2\ndata: {\"url\": \"/repos/ada/engine\", \"name\": \"engine\", \"stars\": 300}\n\n")

    step("5. The server ends the stream: the feed reconnects after `retry`, asking to resume after event 2")
    await server.send("retry: 2000\n\n")
    await server.end()
    clock.advance(by: .seconds(2))
    print("  reconnected with Last-Event-ID: \(server.requests.last?.header("Last-Event-ID") ?? "none")")
    await server.open()

    step("6. The screen goes away: nothing observes the feed any more, and it closes")
    repo.removeObservers(ownedBy: screen)
    watching.cancel()  // an owner-scoped observation ends the same way when its owner is freed
    print("  feed: \(live.connection.value); the server still sees a connection: \(server.isConnected)")
}

await tour()
