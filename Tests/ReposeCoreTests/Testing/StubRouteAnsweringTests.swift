import Foundation
import Repose
import ReposeTesting
import Testing

@testable import ReposeTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("StubRoute: answering held requests by hand")
struct StubRouteAnsweringTests {
    let network = StubNetworkingProvider()
    let url = "https://api.example.com/users/1"

    @Test(
        "hold keeps each request in flight; respond answers the oldest with the response given then, handed over before it returns"
    )
    func respondAnswersTheOldest() async throws {
        let route = network.hold(.get, url)
        let first = send()
        let second = send()
        #expect(await route.requested(count: 2, timeout: .seconds(60)))
        await network.idle(timeout: .seconds(60))
        #expect(first.completionCount == 0 && second.completionCount == 0)
        #expect(route.heldCount == 2)

        #expect(await route.respond(.json(["name": "Ada"], status: 201, headers: ["ETag": "v1"])))
        // Delivered before `respond` returned: no wait.
        #expect(first.completionCount == 1)
        let response = try #require(await first.response())
        #expect(response.statusCode == 201)
        #expect(response.headers["ETag"] == "v1")
        #expect(response.headers["Content-Type"] == "application/json")
        #expect(response.body == Data(#"{"name":"Ada"}"#.utf8))
        #expect(second.completionCount == 0)
        #expect(route.heldCount == 1)
    }

    @Test("respond(toHeldAt:) answers the chosen request; the others stay held, oldest first")
    func respondToChosen() async throws {
        let route = network.hold(StubMatcher(nil, where: { _ in true }))
        let requests = (1...3).map { send("https://api.example.com/items/\($0)") }
        #expect(await route.requested(count: 3, timeout: .seconds(60)))

        #expect(await route.respond(.text("two"), toHeldAt: 1))
        #expect(try #require(await requests[1].response()).body == Data("two".utf8))
        #expect(requests[0].completionCount == 0 && requests[2].completionCount == 0)
        #expect(
            route.heldRequests.map(\.url) == ["https://api.example.com/items/1", "https://api.example.com/items/3"])
        #expect(await !route.respond(.text("none"), toHeldAt: 2))
        #expect(await !route.respond(.text("none"), toHeldAt: -1))
        #expect(route.heldCount == 2)
    }

    @Test("A13 an answer can be a transport error, and it reaches the caller as that very error")
    func respondWithError() async throws {
        let route = network.hold(.get, url)
        let recording = send()
        #expect(await route.requested(timeout: .seconds(60)))
        await route.respond(.error(URLError(.networkConnectionLost)))
        let error = try #require(await recording.error())
        #expect((error as? URLError)?.code == .networkConnectionLost)
    }

    @Test("an answer overrides a held stub's own responses, and reports no progress of its own")
    func respondOverridesTheStub() async throws {
        let route = network.stub(.get, url, text: "scripted").held()
        let recording = send()
        #expect(await route.requested(timeout: .seconds(60)))
        await route.respond(.data(Data("chosen".utf8), status: 202, contentType: "text/markdown"))
        let response = try #require(await recording.response())
        #expect(response.statusCode == 202)
        #expect(response.headers["Content-Type"] == "text/markdown")
        #expect(response.body == Data("chosen".utf8))
        #expect(recording.progressSamples.allSatisfy { $0.bytesSent == 0 && $0.bytesReceived == 0 })  // a length only
    }

    @Test("reportProgress reaches a held request without answering it")
    func progressOnAHeldRequest() async throws {
        let route = network.hold(.get, url)
        let recording = send()
        #expect(await route.requested(timeout: .seconds(60)))
        #expect(await route.reportProgress(TransferProgress(bytesReceived: 50, bytesExpectedToReceive: 100)))
        #expect(recording.progressSamples.map(\.bytesReceived) == [50])
        #expect(recording.completionCount == 0)
        #expect(route.heldCount == 1)
        #expect(await !route.reportProgress(TransferProgress(bytesReceived: 1), toHeldAt: 1))
        await route.respond(.status(204))
        #expect(try #require(await recording.response()).statusCode == 204)
    }

    @Test("failHeld fails every held request with a cancellation, oldest first, and keeps holding later ones")
    func failHeld() async throws {
        let route = network.hold(.get, url)
        let url = try #require(URL(string: url))
        let recordings = (0..<3).map { _ in RecordingTransfer.send(URLRequest(url: url), to: network) }
        #expect(await route.requested(count: 3, timeout: .seconds(60)))
        await #expect(route.failHeld() == 3)
        for recording in recordings {
            #expect((await recording.error() as? URLError)?.code == .cancelled)
        }
        #expect(route.heldCount == 0)

        let later = RecordingTransfer.send(URLRequest(url: url), to: network)
        #expect(await route.requested(count: 4, timeout: .seconds(60)))
        #expect(route.heldCount == 1)
        await #expect(route.failHeld(with: URLError(.timedOut)) == 1)
        #expect((try #require(await later.error()) as? URLError)?.code == .timedOut)
    }

    @Test("a cancelled request leaves the held ones, so the next answer goes to the oldest still waiting")
    func cancelledRequestsDropOut() async throws {
        let route = network.hold(.get, url)
        let cancelled = RecordingTransfer()
        let task = network.startTransfer(URLRequest(url: try #require(URL(string: url))), into: cancelled)
        let waiting = send()
        #expect(await route.requested(count: 2, timeout: .seconds(60)))
        task.cancel()
        #expect(route.heldCount == 1)
        #expect(route.heldRequests.map(\.wasCancelled) == [false])
        #expect(network.requests.map(\.wasCancelled) == [true, false])

        await route.respond(.text("for the one still waiting"))
        #expect(try #require(await waiting.response()).body == Data("for the one still waiting".utf8))
        #expect((try #require(await cancelled.error()) as? URLError)?.code == .cancelled)
        #expect(cancelled.completionCount == 1)
    }

    @Test("an answer larger than the caller accepts fails with ResponseTooLarge, as the caller's sink says")
    func answerOverTheLimit() async throws {
        let route = network.hold(.get, url)
        let recording = RecordingTransfer.send(
            URLRequest(url: try #require(URL(string: url))), to: network, refusingPast: 4)
        #expect(await route.requested(timeout: .seconds(60)))
        await route.respond(.text("12345"))
        let error = try #require(await recording.error())
        #expect((error as? RequestError.Cause.ResponseTooLarge)?.maximumSize == 4)
        #expect(recording.completionCount == 1)
    }

    @Test("a hold has no response of its own: releasing its requests completes them with a StubError")
    func releaseWithoutResponse() async throws {
        let route = network.hold(.get, url)
        let recording = send()
        #expect(await route.requested(timeout: .seconds(60)))
        route.release()
        let error = try #require(await recording.error())
        #expect((error as? StubError)?.reason == .invalidStub)
    }

    @Test("a recorded request keeps the timeout it was sent with")
    func recordsTheTimeout() async throws {
        let route = network.hold(.get, url)
        var request = URLRequest(url: try #require(URL(string: url)))
        request.timeoutInterval = 300
        _ = RecordingTransfer.send(request, to: network)
        _ = send()
        #expect(await route.requested(count: 2, timeout: .seconds(60)))
        #expect(network.requests.map(\.timeoutInterval) == [300, 60])
        await route.failHeld()
    }

    func send(_ address: String? = nil) -> RecordingTransfer {
        RecordingTransfer.send(URLRequest(url: URL(string: address ?? url) ?? URL(fileURLWithPath: "/")), to: network)
    }
}
