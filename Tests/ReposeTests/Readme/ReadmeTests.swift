import Foundation
import Testing

@testable import Repose

@MainActor
@Suite("README", .checksLifetimes)
struct ReadmeTests {
    let harness = Harness()

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
            contentsOf: root.appendingPathComponent("Tests/ReposeTests/Readme/ReadmeTour.swift"), encoding: .utf8)
        let blocks = Self.swiftBlocks(in: readme)
        #expect(!blocks.isEmpty)
        for block in blocks {
            #expect(Self.normalized(twin).contains(Self.normalized(block)), "README block not in the twin:\n\(block)")
        }
    }

    @Test("the README tour loads the profile, patches it, and reloads after the patch succeeds")
    func tourRuns() async throws {
        let screen = ProfileScreen(api: harness.service)
        screen.show()
        #expect(harness.network.sent.map(\.httpMethod) == ["GET", "PATCH"])
        let patch = try #require(harness.service.resource("/profile").allRequests.last)
        harness.network.respond(
            status: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"name":"Ada"}"#.utf8))
        harness.network.respond(status: 204)
        _ = await patch.responseInfo
        #expect(harness.network.sent.map(\.httpMethod) == ["GET", "PATCH", "GET"])
        #expect(harness.service.resource("/profile").jsonDict["name"] as? String == "Ada")
    }
}
