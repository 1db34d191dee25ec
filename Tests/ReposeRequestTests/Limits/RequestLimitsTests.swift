import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// The service's queue in front of the network (rules Q1, Q2), on a held network and virtual time: which requests
/// are sent, in which order, as earlier ones are answered.
@MainActor
@Suite("Q1 Q2 request limits and priorities", .checksLifetimes)
struct RequestLimitsTests {
    final class Heard {
        var metrics: [String: RequestMetrics] = [:]
    }

    let scheduler = TestScheduler(now: .seconds(1000))
    let network = ManualNetwork()
    let heard = Heard()

    func service(_ limits: RequestLimits) -> Service {
        let service = Service(
            baseURL: "https://api.example.com",
            options: .init(
                networking: network, scheduler: scheduler, reconnected: nil, becameActive: nil, limits: limits))
        LifetimeCheck.track(service)
        service.monitorRequests(matching: "**", owner: heard) { heard, metrics in
            heard.metrics[metrics.url.path] = metrics
        }
        return service
    }

    /// The paths of the requests sent so far, oldest first.
    var sent: [String] { network.sent.map { URL(string: $0.url)?.path ?? $0.url } }

    @Test(
        "Q1 beyond the per-host cap requests wait, each starts as another ends; metrics and the inspector show the wait"
    )
    func perHostCap() async {
        let api = service(RequestLimits(perHost: 2))
        for path in ["/a", "/b", "/c", "/d"] { api.resource(path).load() }
        api.resource(absoluteURL: "https://other.example.com/e").load()
        #expect(sent == ["/a", "/b", "/e"])  // another host has slots of its own
        let snapshot = api.inspect()
        #expect(snapshot.resources.first { $0.url.hasSuffix("/c") }?.requestsQueued == 1)
        #expect(snapshot.resources.first { $0.url.hasSuffix("/a") }?.requestsQueued == 0)
        #expect(snapshot.description.contains("1 (1 queued)"))
        scheduler.advance(by: .seconds(3))
        await network.respond(status: 204)  // /a
        #expect(sent == ["/a", "/b", "/e", "/c"])
        scheduler.advance(by: .seconds(2))
        await network.respond(status: 204)  // /b
        #expect(sent == ["/a", "/b", "/e", "/c", "/d"])
        await network.respond(toOldest: 3)
        #expect(heard.metrics["/a"]?.timeQueued == 0)
        #expect(heard.metrics["/c"]?.timeQueued == 3)
        #expect(heard.metrics["/d"]?.timeQueued == 5)
        #expect(heard.metrics["/d"]?.started == 1005)
    }

    @Test("Q1 a request cancelled while it waits leaves the queue at once, completes cancelled and is never sent")
    func cancelWhileWaiting() async {
        let api = service(RequestLimits(total: 1))
        api.resource("/a").load()
        let waiting = api.resource("/b").load()
        api.resource("/c").load()
        #expect(api.resource("/b").isLoading)
        waiting.cancel()
        #expect(waiting.state == .completed)
        #expect(!api.resource("/b").isLoading)
        await network.respond(status: 204)  // /a: its slot goes to /c
        #expect(sent == ["/a", "/c"])
        await network.respond(status: 204)
        #expect(sent == ["/a", "/c"])
    }

    @Test("Q2 waiting requests start by the app's priority, then observed loads before prefetches, then in order")
    func priorities() async {
        let api = service(RequestLimits(total: 1))
        api.configure("/later/**") { $0.priority = .low }
        let owner = Heard()
        api.resource("/busy").load()
        api.resource("/prefetch/1").load()
        api.resource("/later/seen").addObserver(owner: owner) { _, _ in }.load()
        api.resource("/seen").addObserver(owner: owner) { _, _ in }.load()
        api.resource("/prefetch/2").load()
        api.resource("/star").request(.post, json: ["starred": true], options: RequestOptions(priority: .high))
        for _ in 0..<5 { await network.respond(status: 204) }
        #expect(sent == ["/busy", "/star", "/seen", "/prefetch/1", "/prefetch/2", "/later/seen"])
        await network.respond(status: 204)
    }

    @Test("Q2 a waiting load moves up when its resource gains an observer, and down when it loses its last")
    func rankFollowsObservers() async {
        let api = service(RequestLimits(total: 1))
        let first = Heard()
        let second = Heard()
        api.resource("/busy").load()
        api.resource("/x").addObserver(owner: first) { _, _ in }.load()
        api.resource("/y").addObserver(owner: second) { _, _ in }.load()
        api.resource("/z").load()
        api.resource("/z").addObserver(owner: second) { _, _ in }  // a prefetch the screen now shows
        api.resource("/x").removeObservers(ownedBy: first)  // scrolled away: back to a prefetch
        for _ in 0..<3 { await network.respond(status: 204) }
        #expect(sent == ["/busy", "/y", "/z", "/x"])
        await network.respond(status: 204)
    }

    @Test("Q1 unlimited by default, and an event stream never waits for a slot nor holds one")
    func unlimitedAndStreams() async {
        let free = service(.unlimited)
        for index in 0..<20 { free.resource("/free/\(index)").load() }
        #expect(sent.count == 20)
        await network.respond(toOldest: 20)

        let capped = service(RequestLimits(total: 1))
        let live = capped.eventStream("/live")
        let watching = live.events.observe { _ in }
        capped.resource("/a").load()
        #expect(sent.suffix(2) == ["/live", "/a"])
        watching.cancel()  // the stream's last observer leaves, and it closes
        await network.respond(status: 204)
        #expect(network.pendingCount == 0)
        if case .closed = live.connection.value {} else { Issue.record("the stream is still \(live.connection.value)") }
    }
}
