import Foundation
import Repose
import ReposeTesting
import Testing

@testable import ReposeTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("StubRoute: holding, waiting and cancelling")
struct StubRouteTests {
    let network = StubNetworkingProvider()
    let url = "https://api.example.com/slow"

    @Test("a held response stays in flight until released, then is delivered")
    func holdAndRelease() async throws {
        let slow = network.stub(.get, url, json: ["done": true]).held()
        let recording = send()
        #expect(await slow.requested(timeout: .seconds(60)))
        await network.idle(timeout: .seconds(60))
        #expect(recording.completionCount == 0)
        #expect(slow.heldCount == 1)

        slow.release()
        let response = try #require(await recording.response())
        #expect(response.body == Data(#"{"done":true}"#.utf8))
        #expect(slow.heldCount == 0)
    }

    @Test("release stops holding, so later requests are answered at once; hold closes the gate again")
    func releaseOpensTheGate() async throws {
        let route = network.stub(.get, url, text: "ok").held()
        route.release()
        #expect(try #require(await send().response()).statusCode == 200)

        route.hold()
        let held = send()
        await route.requested(count: 2)
        #expect(route.heldCount == 1)
        #expect(held.completionCount == 0)
        route.release()
        #expect(try #require(await held.response()).statusCode == 200)
    }

    @Test("releaseNext delivers the oldest held response only and keeps holding")
    func releaseNext() async throws {
        let route = network.stub(.get, url, responses: [.text("first"), .text("second"), .text("third")]).held()
        let first = send()
        let second = send()
        await route.requested(count: 2)

        #expect(route.releaseNext())
        #expect(try #require(await first.response()).body == Data("first".utf8))
        #expect(second.completionCount == 0)

        let third = send()
        await route.requested(count: 3)
        #expect(route.heldCount == 2)
        #expect(route.releaseNext())
        #expect(route.releaseNext())
        #expect(!route.releaseNext())
        #expect(try #require(await second.response()).body == Data("second".utf8))
        #expect(try #require(await third.response()).body == Data("third".utf8))
    }

    @Test("cancelling a held request completes it with a cancellation at once and logs it as cancelled")
    func cancelHeld() async throws {
        let route = network.stub(.get, url, text: "never seen").held()
        let recording = RecordingTransfer()
        let task = network.startTransfer(URLRequest(url: try #require(URL(string: url))), into: recording)
        await route.requested(timeout: .seconds(60))
        task.cancel()
        task.cancel()
        let error = try #require(await recording.error())
        #expect((error as? URLError)?.code == .cancelled)
        #expect(route.heldCount == 0)
        #expect(network.requests.map(\.wasCancelled) == [true])
        #expect(route.requests.map(\.wasCancelled) == [true])

        route.release()
        await network.idle(timeout: .seconds(60))
        #expect(recording.completionCount == 1)
        #expect(recording.progressSamples.isEmpty)
    }

    @Test("cancelling a delivered request changes nothing")
    func cancelAfterDelivery() async throws {
        network.stub(.get, url, text: "ok")
        let recording = RecordingTransfer()
        let task = network.startTransfer(URLRequest(url: try #require(URL(string: url))), into: recording)
        #expect(try #require(await recording.response()).statusCode == 200)
        task.cancel()
        await network.idle(timeout: .seconds(60))
        #expect(recording.completionCount == 1)
        #expect(network.requests.map(\.wasCancelled) == [false])
    }

    @Test("idle waits for delayed responses but not for held ones")
    func idleAndDelays() async throws {
        network.stub(.get, url, text: "late").delayed(by: .milliseconds(20))
        let held = network.stub(.get, "https://api.example.com/held", text: "held").held()
        let late = send()
        let waiting = RecordingTransfer.send(
            URLRequest(url: try #require(URL(string: "https://api.example.com/held"))), to: network)
        #expect(await network.idle(timeout: .seconds(60)))
        #expect(late.completionCount == 1)
        #expect(waiting.completionCount == 0)
        held.release()
        #expect(await network.idle(timeout: .seconds(60)))
        #expect(waiting.completionCount == 1)
    }

    @Test("a route counts and logs only the requests it answered")
    func routeLog() async throws {
        let users = network.stub(.get, "https://api.example.com/users", json: [])
        let route = network.stub(.get, url, text: "ok")
        _ = send()
        _ = RecordingTransfer.send(
            URLRequest(url: try #require(URL(string: "https://api.example.com/users"))), to: network)
        _ = send()
        await network.idle(timeout: .seconds(60))
        #expect(route.requestCount == 2)
        #expect(route.requests.map(\.url) == [url, url])
        #expect(users.requestCount == 1)
        #expect(route.matcher.description == "GET \(url)")
    }

    @Test("[intended failure] waiting for a request that never comes records a failure instead of hanging")
    func requestedTimesOut() async {
        let route = network.stub(.get, url, text: "ok")
        var arrived = true
        await withKnownIssue {
            arrived = await route.requested(timeout: .milliseconds(10))
        } matching: { issue in
            issue.mentions("Timed out", "waiting for request 1 to GET \(url)")
        }
        #expect(!arrived)
    }

    @Test("[intended failure] idle records a failure when delivery takes longer than its timeout")
    func idleTimesOut() async throws {
        network.stub(.get, url, text: "ok").delayed(by: .seconds(3600))
        let recording = RecordingTransfer()
        let task = network.startTransfer(URLRequest(url: try #require(URL(string: url))), into: recording)
        var idled = true
        await withKnownIssue {
            idled = await network.idle(timeout: .milliseconds(10))
        } matching: { issue in
            issue.mentions("Timed out", "waiting for the stub provider to deliver")
        }
        #expect(!idled)
        #expect(recording.completionCount == 0)
        task.cancel()
        let error = try #require(await recording.error())
        #expect((error as? URLError)?.code == .cancelled)
    }

    @Test("a delivered request's sink is released, so the provider keeps nothing it holds alive")
    func sinkReleased() async throws {
        network.stub(.get, url, text: "ok")
        weak var weakSink: RecordingTransfer?
        do {
            let sink = RecordingTransfer()
            weakSink = sink
            _ = network.startTransfer(URLRequest(url: try #require(URL(string: url))), into: sink)
            await network.idle(timeout: .seconds(60))
            #expect(sink.completionCount == 1)
        }
        #expect(weakSink == nil)
    }

    func send() -> RecordingTransfer {
        RecordingTransfer.send(URLRequest(url: URL(string: url) ?? URL(fileURLWithPath: "/")), to: network)
    }
}
