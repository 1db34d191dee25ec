// The Swift blocks of Docs/FirstServer.md, verbatim: GuideSnippetTests checks that every block appears here, and
// FirstServerGuideTests runs them against a real server on loopback.
import Foundation
import Observation
import Repose
import ReposeStorage

/// Loads a user from the server, prints what happens, and returns once the load is over: `true` if it succeeded.
@MainActor
func showUser(from api: Service, path: String = "/users/ada.json") async -> Bool {
    let user = api.resource(path)

    // Every event, as observers hear it. `newData(network)`: the server answered. `newData(cache)`: the file cache did.
    let events = user.events.observe { event in print("event:", event) }
    defer { events.cancel() }

    // `loadIfNeeded()` returns at once; the program must wait for the response, or its last line ends it first.
    guard let request = user.loadIfNeeded() else {
        print("fresh in memory: nothing to load")
        return true
    }
    switch await request.response {
    case .success:
        print("name:", user.jsonDict["name"] as? String ?? "?")
        return true
    case .failure(let error):
        print("failed:", error.userMessage)
        return false
    }
}

/// What the page's code printed, in order: the tests read it instead of standard output.
@MainActor var firstServerPrinted: [String] = []

@MainActor
private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    firstServerPrinted.append(items.map { "\($0)" }.joined(separator: separator))
}

/// The end of the page's `main.swift`, as a function: compiled, never called (it ends the process).
@MainActor
func firstServerMain() async {
    let cacheFolder = FileManager.default.temporaryDirectory.appendingPathComponent("hello-repose-cache")
    let api = Service(baseURL: "http://127.0.0.1:8000")
    api.configure { $0.pipeline[.rawData].cacheUsing(FileEntityCache(directory: cacheFolder)) }
    ReposeLog.enabled = [.network, .staleness, .cache]
    let succeeded = await showUser(from: api)
    await api.flush()  // the cache writes on a queue of its own: wait until the response is on disk
    exit(succeeded ? 0 : 1)
}

/// Waits until the mirrored resource has data or an error, printing each state it goes through.
@MainActor
func waitForData(_ profile: ObservableResource<[String: Any]>) async {
    while profile.state.latestData == nil, profile.state.latestError == nil {
        await withCheckedContinuation { continuation in
            withObservationTracking {
                _ = profile.state
            } onChange: {
                continuation.resume()
            }
        }
        print("loading:", profile.state.isLoading, "name:", profile.state.content?["name"] as? String ?? "-")
    }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
@MainActor
func printNames(_ profile: ObservableResource<[String: Any]>) async {
    for await state in Observations({ profile.state }) {
        print("name:", state.content?["name"] as? String ?? "-")
        if state.latestData != nil || state.latestError != nil { break }
    }
}

/// Prints each request the service sends as it leaves, and how it ended once it is answered.
@MainActor
func watchRequests(of api: Service) {
    api.monitorRequests(
        owner: api,
        started: { method, url in
            print("asked:", method.rawValue, ReposeLog.describe(url: url))
        }
    ) { metrics in
        let status = metrics.statusCode.map { "\($0)" } ?? "-"
        let time = String(format: "%.2f s", metrics.duration)
        print("answered:", status, metrics.source, metrics.bytesReceived, "bytes in", time)
    }
}
