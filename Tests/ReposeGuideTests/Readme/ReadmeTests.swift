import Foundation
import ReposeStorage
import ReposeTesting
import Testing

@testable import Repose
@testable import ReposeTestSupport

@MainActor
@Suite("README", .checksLifetimes)
struct ReadmeTests {

    /// The folder that holds Package.swift, found from this file's path.
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    static func swiftBlocks(in markdown: String) -> [String] {
        markdown.components(separatedBy: "```swift\n").dropFirst().compactMap {
            $0.components(separatedBy: "```").first
        }
    }

    static func normalized(_ code: String) -> String {
        // Line by line, with runs of spaces folded, so that formatting (comment alignment) does not count.
        code.split(separator: "\n")
            .map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
            .filter { !$0.isEmpty && $0 != "import Repose" }.joined(separator: "\n")
    }

    @Test("every Swift block of the README is compiled in ReadmeTour.swift")
    func snippetsHaveCompiledTwins() throws {
        let root = Self.packageRoot
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let twin = try String(
            contentsOf: root.appendingPathComponent("Tests/ReposeGuideTests/Readme/ReadmeTour.swift"), encoding: .utf8)
        let blocks = Self.swiftBlocks(in: readme)
        #expect(!blocks.isEmpty)
        for block in blocks {
            #expect(Self.normalized(twin).contains(Self.normalized(block)), "README block not in the twin:\n\(block)")
        }
    }

    /// The tour's service as an app's test would build it: on the stub provider.
    private func stubbedAPI() -> (Service, StubNetworkingProvider) {
        let network = StubNetworkingProvider()
        let api = Service(baseURL: "https://api.example.com/v1", options: .init(networking: network))
        LifetimeCheck.track(api)
        return (api, network)
    }

    @Test("the README tour loads the profile, patches it, and reloads after the patch succeeds")
    func tourRuns() async throws {
        let (api, network) = stubbedAPI()
        network.stub(.get, "https://api.example.com/v1/profile", json: ["name": "Ada"])
        network.stub(.patch, "https://api.example.com/v1/profile", status: 204)
        let screen = ProfileScreen(api: api)
        screen.show()
        let profile = api.resource("/profile")
        let patch = try #require(profile.allRequests.last)
        _ = await patch.responseInfo
        await network.idle()  // the reload that the patch's success hook started, answered
        #expect(network.requests.map(\.method) == [.get, .patch, .get])
        #expect(profile.jsonDict["name"] as? String == "Ada")
    }

    @Test("the README's cache keeps the profile on disk, and log-out removes it")
    func cacheAndLogOut() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (api, network) = stubbedAPI()
        network.stub(.get, "https://api.example.com/v1/profile", json: ["name": "Ada"])
        startOffline(api: api, cachesFolder: folder)
        let profile = api.resource("/profile")
        _ = await profile.loadIfNeeded()?.responseInfo
        let cacheFolder = folder.appendingPathComponent("api")
        let cache = try #require(api.resource("/profile").configuration.pipeline[.rawData].cache as? FileEntityCache)
        cache.workQueue.sync {}
        #expect(try FileManager.default.contentsOfDirectory(atPath: cacheFolder.path).count == 1)
        logOut(api: api)
        cache.workQueue.sync {}
        #expect(try FileManager.default.contentsOfDirectory(atPath: cacheFolder.path).isEmpty)
        #expect(profile.latestData == nil)
    }
}
