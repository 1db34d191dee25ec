// ResourceBasics: services, resources, loading, observers, errors and requests, on the stub provider.
// Run it with `swift run ResourceBasics`. No network: a StubNetworkingProvider answers every request.
import Foundation
import Repose
import ReposeTesting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

func step(_ title: String) {
    print("\n== \(title)")
}

/// What an entity holds, in one line: text for bytes and strings, Swift's description for parsed JSON.
func show(_ entity: Entity<Any>?) -> String {
    switch entity?.content {
    case nil: "nothing"
    case let data as Data: "\"\(String(decoding: data, as: UTF8.self))\" (\(data.count) bytes)"
    case let text as String: "\"\(text)\""
    case let other?: "\(other)"
    }
}

@MainActor
func tour() async {
    // A service stands for one API. Here its networking is a stub with scripted answers, and its clock is a
    // scheduler with virtual time, which the tour moves by hand so that freshness shows without waiting.
    step("A service on a stub network")
    let network = StubNetworkingProvider()
    let clock = TestScheduler(now: .seconds(1_000))
    let api = Service(baseURL: "https://api.example.com/v1", options: .init(networking: network, scheduler: clock))
    let base = "https://api.example.com/v1"
    network.stub(.get, "\(base)/users/1", responses: [.json(["name": "Ada"]), .json(["name": "Ada Lovelace"])])
    network.stub(.get, "\(base)/users/404", status: 404, text: "no such user")
    network.stub(.get, "\(base)/offline", error: URLError(.notConnectedToInternet))
    network.stub(.post, "\(base)/users", status: 201, json: ["id": 2])
    print("base URL:", api.baseURL?.absoluteString ?? "none")

    // There is one resource per URL, however you reach it.
    step("Resources")
    let user = api.resource("/users/1")
    print("resource:", user.url.absoluteString)
    print("same object via another path:", api.resource("users").child("1") === user)
    print("with a parameter:", api.resource("/users").withParam("sort", "name").url.absoluteString)

    // Observers hear about every change, whoever caused it. The first event says they are now observing.
    step("Observers")
    let owner = NSObject()
    user.addObserver(owner: owner) { resource, event in
        print("  observer: \(event)  loading=\(resource.isLoading)  data=\(show(resource.latestData))")
    }

    // load() starts a GET at once; isLoading is true before it returns. Await the response like any value.
    step("load() and await request.response")
    let request = user.load()
    print("loading right after load():", user.isLoading)
    switch await request.response {
    case .success(let entity): print("response:", show(entity), "as", entity.contentType)
    case .failure(let error): print("failed:", error.userMessage)
    }

    // loadIfNeeded() can be called as often as you like: it returns nil while the data is fresh (30 s by default)...
    step("loadIfNeeded() and freshness")
    print("fresh, so loadIfNeeded() returns:", user.loadIfNeeded() == nil ? "nil" : "a request")

    // ...and once the data is stale it loads, returning the load in flight to every caller until it completes.
    clock.advance(by: .seconds(31))
    let first = user.loadIfNeeded()
    let second = user.loadIfNeeded()
    print("31 s later, two calls share one load:", first != nil && first === second)
    if let first { _ = await first.response }
    print("after the reload:", show(user.latestData))

    // invalidate() sends nothing and keeps the data, but makes the next loadIfNeeded() load.
    step("invalidate()")
    user.invalidate()
    print("data kept:", show(user.latestData))
    if let reload = user.loadIfNeeded() {
        print("loadIfNeeded() loads again")
        _ = await reload.response
    }

    // A local override shows what the server will hold, without a request (an optimistic update).
    step("Local overrides")
    user.overrideLocalContent(with: "Ada, edited locally")
    print("content type kept:", user.latestData?.contentType ?? "none")

    // wipe() returns the resource to its pristine state: no data, no error.
    step("wipe()")
    user.wipe()
    print("after wipe:", show(user.latestData), "error:", user.latestError?.userMessage ?? "none")

    // An HTTP error status fails the load: latestError has the status, a message for users, and the body.
    step("Errors: a 404")
    let missing = api.resource("/users/404")
    _ = await missing.load().response
    if let error = missing.latestError {
        print("status \(error.httpStatusCode ?? 0): \(error.userMessage); body:", show(error.entity))
    }

    // A transport failure has no status; its cause is the networking error itself.
    step("Errors: no connection")
    let offline = api.resource("/offline")
    _ = await offline.load().response
    if let error = offline.latestError {
        print("message: \(error.userMessage)")
        print(
            "cause is URLError(.notConnectedToInternet):", (error.cause as? URLError)?.code == .notConnectedToInternet)
    }

    // request() sends anything without changing the resource's state; hooks act on that one request.
    step("Requests and hooks")
    let users = api.resource("/users")
    let post = users.request(.post, data: Data(#"{"name":"Grace"}"#.utf8), contentType: "application/json")
        .onSuccess { entity in print("  onSuccess:", show(entity)) }
        .onFailure { error in print("  onFailure:", error.userMessage) }
        .onCompletion { _ in print("  onCompletion") }
    _ = await post.response
    print("the collection's own data is untouched:", show(users.latestData))

    // The stub recorded every request, in order: what a test would check.
    step("What was sent")
    for sent in network.requests {
        print("  \(sent)\(sent.text.map { " body \($0)" } ?? "")")
    }
    await network.idle()
    _ = owner
}

await tour()
