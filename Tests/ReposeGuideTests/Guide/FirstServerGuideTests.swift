import Foundation
import Observation
import ReposeStorage
import ReposeTesting
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// The first-server page's program, run against a real HTTP server on loopback through the URLSession provider,
/// with a file cache in a temporary folder.
@MainActor
@Suite("The first-server page's program, against a real server", .serialized, .hangLimit)
final class FirstServerGuideTests {
    let server: LoopbackServer
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("repose-first-\(UUID().uuidString)")
    /// One cache for every launch: its work queue puts a launch's reads after the previous launch's writes.
    let cache: FileEntityCache

    init() async throws {
        server = try await LoopbackServer()
        cache = FileEntityCache(directory: folder)
        firstServerPrinted = []
        let seed = Service(baseURL: server.url("").absoluteString)
        _ = await seed.resource("/store/users/ada").request(.put, json: ["name": "Ada"]).response
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// A launch of the program: a new service over the same cache folder, its clock at `date`.
    func launch(at date: Date) -> Service {
        let api = Service(
            baseURL: server.url("").absoluteString, options: .init(scheduler: TestScheduler(date: date)))
        api.configure { $0.pipeline[.rawData].cacheUsing(self.cache) }
        return api
    }

    /// The GET requests the server's store received.
    func userRequests() async -> Int {
        let log = Service(baseURL: server.url("").absoluteString).resource("/store-log")
        _ = await log.load().response
        return log.jsonArray.filter { ($0 as? [String: Any])?["method"] as? String == "GET" }.count
    }

    @Test("the program loads from the server and returns; run again inside expirationTime, the cache answers alone")
    func relaunchSendsNothing() async throws {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(await showUser(from: launch(at: start), path: "/store/users/ada"))
        #expect(firstServerPrinted == ["event: requested", "event: newData(network)", "name: Ada"])
        #expect(await userRequests() == 1)

        firstServerPrinted = []
        #expect(await showUser(from: launch(at: start.addingTimeInterval(10)), path: "/store/users/ada"))
        #expect(firstServerPrinted == ["event: newData(cache)", "event: notModified", "name: Ada"])
        #expect(await userRequests() == 1)  // nothing reached the server

        firstServerPrinted = []
        #expect(await showUser(from: launch(at: start.addingTimeInterval(31)), path: "/store/users/ada"))
        #expect(firstServerPrinted.prefix(2) == ["event: newData(cache)", "event: requested"])
        #expect(firstServerPrinted.last == "name: Ada")
        #expect(await userRequests() == 2)  // stale: revalidated with the server
    }

    @Test("X1 the page's monitor prints each request that reached the server, and the cache's answer as the cache's")
    func monitorShowsWhatReachedTheServer() async throws {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let first = launch(at: start)
        watchRequests(of: first)
        #expect(await showUser(from: first, path: "/store/users/ada"))
        let url = server.url("/store/users/ada").absoluteString
        #expect(firstServerPrinted.filter { $0.hasPrefix("asked:") } == ["asked: GET \(url)"])
        let answered = firstServerPrinted.filter { $0.hasPrefix("answered:") }
        #expect(answered.count == 1)
        #expect(answered.first?.hasPrefix("answered: 200 network ") == true, "\(answered)")
        #expect(answered.first?.hasSuffix(" bytes in 0.00 s") == true, "\(answered)")  // the launch's test clock

        firstServerPrinted = []
        let second = launch(at: start.addingTimeInterval(10))
        watchRequests(of: second)
        #expect(await showUser(from: second, path: "/store/users/ada"))
        #expect(firstServerPrinted.filter { $0.hasPrefix("asked:") } == ["asked: GET \(url)"])
        let fromCache = firstServerPrinted.filter { $0.hasPrefix("answered:") }
        #expect(fromCache.count == 1)
        #expect(fromCache.first?.hasPrefix("answered: - cache 0 bytes in ") == true, "\(fromCache)")
        #expect(await userRequests() == 1)
    }

    @Test("a server that is not there: the program returns false with a message, instead of hanging")
    func noServer() async {
        server.stop()
        await server.exited()
        #expect(!(await showUser(from: launch(at: Date(timeIntervalSince1970: 1_800_000_000)), path: "/nobody")))
        #expect(firstServerPrinted.last?.hasPrefix("failed: ") == true)
    }

    @Test("the withObservationTracking loop compiles under Swift 6 and follows the mirror until the data is in")
    func observationLoop() async {
        let api = launch(at: Date(timeIntervalSince1970: 1_800_000_000))
        let profile = ObservableResource(api.resource("/store/users/ada"), as: [String: Any].self)
        profile.loadIfNeeded()
        await waitForData(profile)
        #expect(profile.state.content?["name"] as? String == "Ada")
        #expect(firstServerPrinted.last?.hasSuffix("name: Ada") == true)
    }

    // Swift Testing skips a test whose availability the OS lacks, so an older OS reports it skipped, not passed.
    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    @Test("the Observations sequence follows the mirror until the data is in, where the OS has it")
    func observationsSequence() async {
        let api = launch(at: Date(timeIntervalSince1970: 1_800_000_000))
        let profile = ObservableResource(api.resource("/store/users/ada"), as: [String: Any].self)
        profile.loadIfNeeded()
        await printNames(profile)
        #expect(firstServerPrinted.last == "name: Ada")
    }

    @Test("T11 the program a child process runs for the relaunch test is the page's: its showUser, word for word")
    func relaunchProgramIsThePage() throws {
        let root = ReadmeTests.packageRoot
        let page = try String(contentsOf: root.appendingPathComponent("Docs/FirstServer.md"), encoding: .utf8)
        let program = try String(
            contentsOf: root.appendingPathComponent("Tests/FirstServerProgram/main.swift"), encoding: .utf8)
        let showUser = try #require(ReadmeTests.swiftBlocks(in: page).first { $0.contains("func showUser") })
        #expect(ReadmeTests.normalized(program).contains(ReadmeTests.normalized(showUser)))
    }
}
