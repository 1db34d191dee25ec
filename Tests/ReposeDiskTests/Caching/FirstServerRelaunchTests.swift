import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// The first-server page's program as the page teaches it, in a child process against a real server on loopback:
/// it exits right after its load, and the next run must find the load's data on disk (rule T11).
@MainActor
@Suite("T11 the first-server program, run twice in a row as a child process", .serialized)
final class FirstServerRelaunchTests {
    let server: LoopbackServer

    init() async throws {
        server = try await LoopbackServer()
        let seed = Service(baseURL: server.url("").absoluteString)
        _ = await seed.resource("/store/users/ada").request(.put, json: ["name": "Ada"]).response
    }

    /// The GET requests the server's store received so far.
    func userRequests() async -> Int {
        let log = Service(baseURL: server.url("").absoluteString).resource("/store-log")
        _ = await log.load().response
        return log.jsonArray.filter { ($0 as? [String: Any])?["method"] as? String == "GET" }.count
    }

    /// Runs the program once over `folder`, to its end.
    func run(over folder: URL) async throws -> (status: Int32, output: String) {
        let program = try ChildProcess.executable(named: "repose-first-server")
        let base = server.url("").absoluteString
        return try await ChildProcess.offTheTestThreads {
            try ChildProcess.run(
                program, arguments: [base, folder.path], environment: ProcessInfo.processInfo.environment)
        }
    }

    @Test("T11 the program's second run sends nothing, in each of 10 pairs of runs: the first run's data was on disk")
    func secondRunSendsNothing() async throws {
        for pair in 1...10 {
            let folder = FileManager.default.temporaryDirectory
                .appendingPathComponent("repose-first-server-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let before = await userRequests()
            let first = try await run(over: folder)
            #expect(first.status == 0, "pair \(pair), first run: \(first.output)")
            #expect(first.output.contains("event: newData(network)"), "pair \(pair), first run: \(first.output)")
            let second = try await run(over: folder)
            #expect(second.status == 0, "pair \(pair), second run: \(second.output)")
            #expect(second.output.contains("event: newData(cache)"), "pair \(pair), second run: \(second.output)")
            #expect(await userRequests() - before == 1, "pair \(pair): the second run asked the server again")
        }
    }
}
