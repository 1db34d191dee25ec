import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// The demo's live mode, run as a user runs it: the built `repose-demo --base-url …` as a child process, its commands
/// on standard input, against a real loopback server of GitHub's shape (the script's JSON store, seeded with one
/// user and two repositories), through `URLSession`, with its disk cache in a temporary home folder.
@MainActor
@Suite("repose-demo on a live API (--base-url)", .checksLifetimes)
final class DemoLiveModeTests {
    let fixture: IntegrationFixture
    /// The demo's home: its disk cache goes to `cache/repose-demo` under it.
    let home: URL
    var base: String { "http://127.0.0.1:\(fixture.server.port)/store" }
    var cacheFolder: URL { home.appendingPathComponent("cache/repose-demo") }

    init() async throws {
        fixture = try await IntegrationFixture()
        home = FileManager.default.temporaryDirectory.appendingPathComponent("repose-demo-\(UUID().uuidString)")
        for (path, value) in Self.seeds {
            let info = try #require(
                await fixture.completion(of: fixture.service.resource(path).request(.put, json: value)))
            try #require(info.response.entity != nil, "seeding \(path)")
        }
    }

    /// One user with two repositories, and one repository's details, at the paths GitHub's API has them.
    static let seeds: [(String, [String: Any])] = [
        ("/store/users/ada", ["login": "ada", "name": "Ada Lovelace", "public_repos": 2]),
        ("/store/users/ada/repos/1", ["name": "analytical-engine", "full_name": "ada/analytical-engine"]),
        ("/store/users/ada/repos/2", ["name": "difference-engine", "full_name": "ada/difference-engine"]),
        ("/store/repos/ada/difference-engine", ["full_name": "ada/difference-engine", "stargazers_count": 213]),
    ]

    deinit {
        try? FileManager.default.removeItem(at: home)
    }

    @Test("A12 K1 K5 the user shows, a refresh costs two 304s, the next launch starts from disk; the token is sent")
    func showsRefreshesAndStartsFromDisk() async throws {
        let first = try await runDemo(token: "demo-token-1", commands: ["refresh", "repos", "quit"])
        #expect(first.contains("👤 Ada Lovelace (@ada) · 2 public repos · analytical-engine, difference-engine"))
        #expect(first.contains("🌐 /store/users/ada: 304, nothing changed"))
        #expect(first.contains("🌐 /store/users/ada/repos?per_page=5: 304, nothing changed"))
        #expect(first.contains("📚 2 repositories in 1 page, that is all"))
        #expect(!first.contains("from disk"))

        let second = try await runDemo(token: "demo-token-1", commands: ["quit"])
        #expect(second.contains("💾 /store/users/ada: from disk, saved at"))
        let authorizations = try await demoRequests().map { $0["authorization"] as? String }
        #expect(!authorizations.isEmpty && authorizations.allSatisfy { $0 == "Bearer demo-token-1" })

        // The folder and every entry are the user's alone, and the token is in none of them.
        #expect(try permissions(of: cacheFolder) == 0o700)
        let entries = try FileManager.default.contentsOfDirectory(at: cacheFolder, includingPropertiesForKeys: nil)
        #expect(!entries.isEmpty)
        for entry in entries {
            #expect(try permissions(of: entry) == 0o600, "\(entry.lastPathComponent)")
            let bytes = try Data(contentsOf: entry)
            #expect(bytes.range(of: Data("demo-token-1".utf8)) == nil, "\(entry.lastPathComponent) holds the token")
        }
    }

    @Test("another token, or none, never sees what the first one's launch saved on the same device")
    func anotherAccountStartsCold() async throws {
        _ = try await runDemo(token: "demo-token-1", commands: ["quit"])
        for token in ["demo-token-2", nil] {
            let output = try await runDemo(token: token, commands: ["quit"])
            #expect(output.contains("👤 Ada Lovelace (@ada)"))
            #expect(!output.contains("from disk"), "token \(token ?? "none") was shown another account's data")
        }
    }

    @Test("M1 M2 an unstar shows at once and the server agrees")
    func unstar() async throws {
        let output = try await runDemo(token: nil, commands: ["unstar ada/difference-engine", "quit"])
        #expect(output.contains("★ ada/difference-engine: 212 stars (shown at once; the server has not answered)"))
        #expect(output.contains("✓ ada/difference-engine: unstarred; the server agreed"))
        #expect(try await demoRequests().contains { $0["method"] as? String == "DELETE" })
    }

    @Test("L3 with the server unreachable, each command that asks again says it failed again")
    func unreachable() async throws {
        try await setStoreOffline(true)
        let output = try await runDemo(token: nil, commands: ["refresh", "repos", "quit"])
        try await setStoreOffline(false)
        #expect(output.contains("⚠️  ada: "))  // the first failure is the status line's
        #expect(output.contains("🌐 /store/users/ada: failed again, "))
        #expect(output.contains("⚠️  the first page did not load: "))
        #expect(!output.contains("page 0 loaded"))
    }

    /// Runs the demo on the server with `commands` on its standard input; returns what it printed.
    private func runDemo(token: String?, commands: [String]) async throws -> String {
        let executable = try ChildProcess.executable(named: "repose-demo")
        let arguments = ["--base-url", base, "--user", "ada"] + (token.map { ["--token", $0] } ?? [])
        let input = commands.map { $0 + "\n" }.joined()
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.path
        environment["XDG_CACHE_HOME"] = home.appendingPathComponent("cache").path
        let finished = try await ChildProcess.offTheTestThreads { [environment] in
            try ChildProcess.run(executable, arguments: arguments, environment: environment, input: input)
        }
        #expect(finished.status == 0, "repose-demo exited with \(finished.status):\n\(finished.output)")
        return finished.output
    }

    /// The requests the demo made to the store, oldest first: the log after the seeding's requests.
    private func demoRequests() async throws -> [[String: Any]] {
        let info = try #require(await fixture.completion(of: fixture.service.resource("/store-log").load()))
        let log = try #require(info.response.entity?.content as? [[String: Any]])
        return Array(log.dropFirst(Self.seeds.count))
    }

    /// While the store is offline, it resets every connection before answering: a transport error.
    private func setStoreOffline(_ isOffline: Bool) async throws {
        let switched = fixture.service.resource("/store-offline").withParam("on", isOffline ? "1" : "0").load()
        try #require(await fixture.completion(of: switched)?.response.entity != nil)
    }

    private func permissions(of url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return try #require(attributes[.posixPermissions] as? Int) & 0o777
    }
}
