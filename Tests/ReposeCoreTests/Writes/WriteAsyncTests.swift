import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// A write and its outcome awaited with `try await`: the value on success, a thrown `RequestError` after the
/// change rolled back on failure.
@MainActor
@Suite("Writes awaited with try await", .checksLifetimes)
struct WriteAsyncTests {
    let harness = Harness()
    var repo: Resource { harness.service.resource("/repos/42") }

    private func loadRepo() async {
        _ = await harness.answer(repo.load(), contentType: "application/json", text: #"{"stars": 1}"#)
    }

    @Test("M1 M4 try await on a write returns the server's answer, with the change showing until then")
    func awaitSuccess() async throws {
        await loadRepo()
        let star = repo.request(.put, json: ["starred": true], showing: .merge(["stars": 2]))
        #expect(repo.jsonDict["stars"] as? Int == 2)
        await harness.network.respond(status: 200, contentType: "application/json", text: #"{"starred": true}"#)
        let answer = try await star.content(as: [String: Any].self)
        #expect(answer["starred"] as? Bool == true)
        #expect(repo.jsonDict["stars"] as? Int == 2)  // settled: kept until the reload brings the server's count
    }

    @Test("M3 try await on a failed write throws its RequestError, after its change rolled back")
    func awaitFailure() async {
        await loadRepo()
        let star = repo.request(.put, showing: .merge(["stars": 2]))
        await harness.network.respond(status: 403)
        do {
            _ = try await star.entity
            Issue.record("a refused write returned a value")
        } catch {
            #expect(error.httpStatusCode == 403)
            #expect(repo.jsonDict["stars"] as? Int == 1)
            #expect(repo.currentState.pendingChanges == 0)
        }
    }

    @Test("M3 cancelling the task that awaits a write cancels it, and its change goes")
    func awaitCancelled() async {
        await loadRepo()
        let star = repo.request(.put, showing: .merge(["stars": 2]))
        let waiting = Task { @MainActor in (try? await star.entity) != nil }
        waiting.cancel()
        #expect(await waiting.value == false)
        #expect(star.state == .completed)
        #expect(repo.jsonDict["stars"] as? Int == 1)
    }
}
