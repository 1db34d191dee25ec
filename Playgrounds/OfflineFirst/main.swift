// OfflineFirst: a file cache that puts yesterday's data on screen at launch, then refreshes it quietly.
// Run it with `swift run OfflineFirst`. No network: a StubNetworkingProvider answers; the cache is a real folder.
import Foundation
import Repose
import ReposeStorage
import ReposeTesting

func step(_ title: String) {
    print("\n== \(title)")
}

/// One launch of the app: a service with a file cache on the raw bytes, over the shared folder.
@MainActor
func launch(folder: URL, network: StubNetworkingProvider, at seconds: Int64) -> (Service, FileEntityCache) {
    // A virtual clock, so that "the next day" needs no waiting; an app leaves the scheduler out.
    let clock = TestScheduler(now: .seconds(seconds))
    let service = Service(baseURL: "https://api.example.com", options: .init(networking: network, scheduler: clock))
    let cache = FileEntityCache(directory: folder)
    service.configure {
        $0.pipeline[.rawData].cacheUsing(cache)
        $0.expirationTime = 60 * 60  // an hour
    }
    return (service, cache)
}

/// Prints every event with what the screen would show, and returns when the load is over.
@MainActor
func watch(_ resource: Resource, owner: AnyObject) {
    resource.addObserver(owner: owner) { resource, event in
        let title = resource.jsonDict["title"] as? String ?? "nothing"
        print("  \(event): showing \"\(title)\", loading=\(resource.isLoading)")
    }
}

@MainActor
func tour() async {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("OfflineFirst-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = "https://api.example.com/articles/1"

    // First launch: the folder is empty, so the data comes from the network and is written to disk on the
    // cache's own queue, off the main actor.
    step("Cold start: an empty cache, so the network")
    do {
        let network = StubNetworkingProvider()
        network.stub(.get, url, headers: ["ETag": "\"v1\""], json: ["title": "Hello, disk"])
        let (service, cache) = launch(folder: folder, network: network, at: 1_000)
        let article = service.resource("/articles/1")
        let owner = NSObject()
        watch(article, owner: owner)
        _ = await article.loadIfNeeded()?.response
        print("requests sent:", network.requests.count)
        cache.workQueue.sync {}  // only so that the listing below sees the write; an app never waits for it
        let written = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        print("entries on disk:", written.count)
    }  // the service, its resources and its observers are gone: the app quit

    // The next day: a new service over the same folder shows the stored article at once, from disk, and only then
    // asks the server, sending the stored ETag. The server answers 304 Not Modified: nothing to download.
    step("Relaunch the next day: disk first, then a revalidation")
    let network = StubNetworkingProvider()
    let route = network.stub(.get, url, responses: [.status(304)])
    let (service, cache) = launch(folder: folder, network: network, at: 1_000 + 24 * 60 * 60)
    let article = service.resource("/articles/1")
    let owner = NSObject()
    watch(article, owner: owner)
    let info = await article.loadIfNeeded()?.responseInfo
    print("answered by the server with new data:", info?.isNew ?? false)
    print("sent If-None-Match:", route.requests.first?.headers["If-None-Match"] ?? "none")

    // Log-out: one call forgets every resource and empties every cache the service uses.
    step("Log-out")
    service.wipeResources()
    cache.workQueue.sync {}  // again only for the listing: the removal is queued ahead of any later read
    let left = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    print("entries on disk after wipeResources():", left.count)
}

await tour()
