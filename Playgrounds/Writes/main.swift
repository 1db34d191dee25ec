// Writes: optimistic stars, a refused write that rolls back alone, and a write made offline that arrives after
// a relaunch. Run it with `swift run Writes`. No network: a StubNetworkingProvider answers every request.
import Foundation
import Repose
import ReposeStorage
import ReposeTesting

func step(_ title: String) {
    print("\n== \(title)")
}

let repoURL = "https://api.example.com/repos/ada/engine"
let noteURL = "https://api.example.com/notes/1"

/// The server. The repository's star count goes 213, 214, 213, 214 as it is starred and unstarred; the repository
/// refuses a new name (HTTP 422); the note's first two PATCHes find no network, the next one gets through.
@MainActor
func stubServer() -> StubNetworkingProvider {
    let network = StubNetworkingProvider()
    func repo(_ stars: Int) -> StubResponse { .json(["name": "engine", "stargazers_count": stars]) }
    network.stub(.get, repoURL, responses: [repo(213), repo(214), repo(213), repo(214)])
    network.stub(.put, "https://api.example.com/user/starred/ada/engine", responses: [.status(204)])
    network.stub(.delete, "https://api.example.com/user/starred/ada/engine", responses: [.status(204)])
    network.stub(.patch, repoURL, status: 422, json: ["message": "That name is taken."])
    network.stub(.get, noteURL, responses: [.json(["text": "Milk, eggs"]), .json(["text": "Milk, eggs, flour"])])
    network.stub(
        StubMatcher(.patch, noteURL),
        responses: [.error(URLError(.notConnectedToInternet)), .error(URLError(.notConnectedToInternet)), .status(204)])
    return network
}

/// Prints what `repository` shows each time it changes, and how many changes are still pending.
@MainActor
func watch(_ repository: Resource) -> Subscription {
    let lines = repository.state.map { state in
        let json = state.latestData?.content as? [String: Any] ?? [:]
        let stars = json["stargazers_count"].map { "\($0)" } ?? "?"
        let name = json["name"].map { "\($0)" } ?? "?"
        return "  shows: \(name), \(stars) stars, pending changes: \(state.pendingChanges)"
    }
    return lines.removeDuplicates().observe { print($0) }
}

/// Waits until the server's data has replaced every change pending on `resource`.
@MainActor
func settled(_ resource: Resource) async {
    for await state in resource.state.values where state.pendingChanges == 0 {
        return
    }
}

@MainActor
func stars(network: StubNetworkingProvider) async {
    let service = Service(baseURL: "https://api.example.com", options: .init(networking: network))
    let repo = service.resource("/repos/ada/engine")
    let starred = service.resource("/user/starred/ada/engine")
    _ = await repo.load().response
    let subscription = watch(repo)

    // Starring is a PUT to another URL that changes what the repository shows: `on: repo`. The change shows at
    // once, as a layer over the server's data; after the server agrees, the reload that follows replaces it in
    // one step, so the count never flickers back.
    step("Star: 214 at once, then the server's 214")
    let oneMore = OptimisticChange.update([String: Any].self) { $0["stargazers_count"] = 214 }
    _ = await starred.request(.put, showing: oneMore, on: repo).response
    await settled(repo)

    step("Unstar: 213 at once, then the server's 213")
    let oneFewer = OptimisticChange.update([String: Any].self) { $0["stargazers_count"] = 213 }
    _ = await starred.request(.delete, showing: oneFewer, on: repo).response
    await settled(repo)

    // Two changes pending at once, a star and a rename. The server refuses the rename: only its layer goes; the
    // star stays, unlike a snapshot restored over the screen, which would have erased it.
    step("A star and a rename at once; the rename is refused and rolls back alone")
    let star = starred.request(.put, showing: oneMore, on: repo)
    do {
        _ = try await repo.request(.patch, json: ["name": "engine-2"], showing: .merge(["name": "engine-2"])).entity
    } catch {
        print("  rename refused: HTTP \(error.httpStatusCode ?? 0), \(error.jsonDict["message"] ?? "")")
    }
    _ = await star.response
    await settled(repo)
    subscription.cancel()
}

/// One launch of a notes app whose writes go through an outbox kept in `folder`.
@MainActor
func notesApp(network: StubNetworkingProvider, folder: URL, reconnected: SignalSource<Void>) -> Service {
    let service = Service(
        baseURL: "https://api.example.com",
        options: .init(networking: network, reconnected: reconnected.signal, outbox: .files(in: folder)))
    service.configure("/notes/**") { $0.usesOutbox = true }
    return service
}

/// The first launch: the note's edit finds no network, and the app quits with it in the outbox.
@MainActor
func firstLaunch(network: StubNetworkingProvider, folder: URL, reconnected: SignalSource<Void>) async {
    let app = notesApp(network: network, folder: folder, reconnected: reconnected)
    let note = app.resource("/notes/1")
    _ = await note.load().response
    note.request(.patch, json: ["text": "Milk, eggs, flour"], showing: .merge(["text": "Milk, eggs, flour"]))
    await app.outbox.send()  // returns once the attempt has its answer: no network
    print("  note shows: \(note.jsonDict["text"] ?? "?")")
    print("  outbox: \(app.outbox.status.pending.count) waiting")
}  // the app quits: its service goes, the edit stays on disk

@MainActor
func offline(network: StubNetworkingProvider) async {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("writes-playground-\(UUID())")
    defer { try? FileManager.default.removeItem(at: folder) }
    let reconnected = SignalSource<Void>()

    // The note's edit finds no network. The outbox keeps it, on disk, as data: method, URL, body, an
    // Idempotency-Key; the change keeps showing.
    step("An edit made offline waits in the outbox")
    await firstLaunch(network: network, folder: folder, reconnected: reconnected)

    // The app quits. At the next launch the outbox reads its folder: the edit shows again at once, before any
    // network answer, and goes when the network is back.
    step("Relaunch: the edit shows again, and arrives when the network returns")
    let secondLaunch = notesApp(network: network, folder: folder, reconnected: reconnected)
    let relaunched = secondLaunch.resource("/notes/1")
    await secondLaunch.outbox.send()  // read from disk and tried at launch: still no network
    let pending = relaunched.currentState.pendingChanges
    print("  note shows: \(relaunched.jsonDict["text"] ?? "?") (pending changes: \(pending))")
    reconnected.send(())  // the network is back
    await secondLaunch.outbox.send()
    await settled(relaunched)
    print("  outbox: \(secondLaunch.outbox.status.pending.count) waiting")
    print("  note shows: \(relaunched.jsonDict["text"] ?? "?"), from the server")
    let keys = network.requests.filter { $0.method == .patch && $0.url == noteURL }
        .map { $0.header("Idempotency-Key") ?? "none" }
    print("  PATCH attempts: \(keys.count), one Idempotency-Key for all: \(Set(keys).count == 1)")
}

@MainActor
func tour() async {
    let network = stubServer()
    await stars(network: network)
    await offline(network: network)
}

await tour()
