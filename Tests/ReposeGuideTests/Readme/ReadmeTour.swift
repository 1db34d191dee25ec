// The README tour, verbatim: ReadmeTests checks that every Swift block of README.md appears in this file.
import Foundation
import Repose
import ReposeStorage

@testable import ReposeTestSupport

/// The page's code prints what it shows, as an app would; in the test run that would only be noise, so in this
/// file `print` writes nothing. The tests check the state the code leaves instead.
private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {}

@MainActor
final class ProfileScreen {
    let api: Service
    var subscriptions: [Subscription] = []

    init(api: Service = Service(baseURL: "https://api.example.com/v1")) {
        self.api = api
    }

    func show() {
        let profile = api.resource("/profile")  // the same object for the same URL, always

        // Observers hear about every change, whoever caused it.
        profile.addObserver(owner: self) { resource, event in
            print(event, resource.jsonDict["name"] as? String ?? "…", resource.latestError?.userMessage ?? "")
        }

        // Call it as often as you like: it loads only when the data is stale and nothing is in flight.
        profile.loadIfNeeded()

        // Requests have hooks for code that cares about one request.
        profile.request(.patch, json: ["name": "Ada"])
            .onSuccess { _ in profile.load() }
            .onFailure { error in print(error.userMessage) }

        // Every resource's state is a signal: map it, combine it, bind it.
        let title = profile.state.map { state in
            state.isLoading ? "Loading…" : state.jsonDict["name"] as? String ?? "Profile"
        }
        subscriptions.append(title.observe { print("title:", $0) })
    }

    func refresh() async throws {
        let entity = try await api.resource("/profile").load().entity  // async/await too
        print(entity.jsonDict)
    }
}

@MainActor
func startOffline(api: Service, cachesFolder: URL) {
    // Yesterday's data on screen at launch, then a quiet refresh: private files, whole writes, bounded size.
    let cache = FileEntityCache(directory: cachesFolder.appendingPathComponent("api"))
    api.configure { $0.pipeline[.rawData].cacheUsing(cache) }
}

@MainActor
func logOut(api: Service) {
    api.wipeResources()  // every resource, and every entry of every cache it used
}
