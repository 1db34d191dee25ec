// The program Docs/FirstServer.md teaches, run as a child process by FirstServerRelaunchTests (rule T11): the page's
// `showUser` and the end of its main.swift, with the server's address and the cache folder taken from the command
// line instead of the page's fixed ones. The test checks that `showUser` here is the page's, word for word.
//
// Usage: repose-first-server <base URL> <cache folder>
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

guard CommandLine.arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: repose-first-server <base URL> <cache folder>\n".utf8))
    exit(2)
}
let cacheFolder = URL(fileURLWithPath: CommandLine.arguments[2])
let api = Service(baseURL: CommandLine.arguments[1])
api.configure { $0.pipeline[.rawData].cacheUsing(FileEntityCache(directory: cacheFolder)) }
let succeeded = await showUser(from: api, path: "/store/users/ada")
await api.flush()
exit(succeeded ? 0 : 1)
