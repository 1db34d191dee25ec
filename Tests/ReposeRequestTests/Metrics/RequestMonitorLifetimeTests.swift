import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// Monitors as subscriptions (rule X1 amended): attached to the service or by URL pattern, ended by their owner or by
/// their subscription, and hearing loads the caches answer. Manual network, virtual time.
@MainActor
@Suite("X1 request monitors are owner-scoped subscriptions", .checksLifetimes)
struct RequestMonitorLifetimeTests {
    /// A monitor's owner, which keeps what it heard.
    final class Screen {
        var heard: [String] = []
    }

    /// Something a monitor's closure holds, to see whether the closure was released.
    final class Captured {}

    let harness = Harness()
    var network: ManualNetwork { harness.network }

    /// Loads `path` and answers it.
    func load(_ path: String) async {
        await harness.answer(harness.service.resource(path).load(), text: "x")
    }

    @Test("X1 a monitor whose owner is gone hears nothing more, is released, and measures nothing")
    func ownerGone() async throws {
        var screen: Screen? = Screen()
        weak var captured: Captured?
        var heardAfter: [String] = []
        do {
            let held = Captured()
            captured = held
            harness.service.monitorRequests(owner: try #require(screen)) { metrics in
                withExtendedLifetime(held) { heardAfter.append(metrics.url.path) }
            }
        }
        await load("/a")
        #expect(heardAfter == ["/v1/a"])
        #expect(captured != nil)  // the owner lives: the monitor holds its closure
        screen = nil
        let load = harness.service.resource("/b").load()
        #expect((load.delegate as? NetworkRequest)?.isMeasuring == false)
        await harness.answer(load, text: "x")
        #expect(heardAfter == ["/v1/a"])
        #expect(captured == nil)
    }

    @Test("X1 a cancelled monitor hears nothing more and is released; the others go on")
    func cancelled() async throws {
        let screen = Screen()
        weak var captured: Captured?
        let subscription: Subscription
        do {
            let held = Captured()
            captured = held
            subscription = harness.service.monitorRequests(owner: screen) { screen, metrics in
                withExtendedLifetime(held) { screen.heard.append("cancelled " + metrics.url.path) }
            }
        }
        harness.service.monitorRequests(owner: screen) { screen, metrics in screen.heard.append(metrics.url.path) }
        await load("/a")
        subscription.cancel()
        #expect(subscription.isCancelled)
        #expect(captured == nil)
        await load("/b")
        #expect(screen.heard == ["cancelled /v1/a", "/v1/a", "/v1/b"])
    }

    @Test("X1 a screen that attaches a monitor on each visit leaves none behind once it is gone")
    func eachVisit() async throws {
        var screens: [Screen] = []
        for _ in 0..<3 {
            let screen = Screen()
            harness.service.monitorRequests(owner: screen) { screen, metrics in screen.heard.append(metrics.url.path) }
            screens.append(screen)
        }
        await load("/a")
        #expect(screens.map(\.heard) == [["/v1/a"], ["/v1/a"], ["/v1/a"]])
        weak let first = screens.first
        screens.removeAll()
        #expect(first == nil)
        let load = harness.service.resource("/b").load()
        #expect((load.delegate as? NetworkRequest)?.isMeasuring == false)
        await harness.answer(load, text: "x")
        #expect(harness.service.core.monitors.isListening == false)
    }

    @Test("X1 a monitor by URL pattern hears only the requests of the resources it matches, as configure would")
    func pattern() async throws {
        let screen = Screen()
        harness.service.monitorRequests(
            matching: "/users/*", owner: screen,
            started: { screen, method, url in screen.heard.append("start \(method) \(url.path)") }
        ) { screen, metrics in screen.heard.append("done \(metrics.url.path)") }
        await load("/users/1")
        await load("/users/1/posts")
        await load("/teams/1")
        #expect(screen.heard == ["start get /v1/users/1", "done /v1/users/1"])
    }

    @Test("X1 a load the entity cache answers is heard with the cache as its source, no bytes and no attempt")
    func cacheAnswered() async throws {
        let cache = RecordingCache()
        harness.service.configure { $0.pipeline[.rawData].cacheUsing(cache) }
        cache.seed("/v1/a", content: Data("cached".utf8), timestamp: 995)
        let screen = Screen()
        var heard: [RequestMetrics] = []
        harness.service.monitorRequests(
            owner: screen, started: { screen, method, url in screen.heard.append("start \(method) \(url.path)") }
        ) { _, metrics in heard.append(metrics) }
        let resource = harness.service.resource("/a")
        let load = try #require(resource.loadIfNeeded())
        let info = await load.responseInfo
        #expect(info.response.entity?.content as? String == "cached")
        #expect(network.sent.isEmpty)
        let metrics = try #require(heard.first)
        #expect(heard.count == 1)
        #expect(screen.heard == ["start get /v1/a"])
        #expect(metrics.source == .cache)
        #expect(metrics.method == .get && metrics.url.path == "/v1/a")
        #expect(metrics.statusCode == nil)
        #expect(metrics.bytesReceived == 0 && metrics.bytesSent == 0)
        #expect(metrics.attempts == 0)
        #expect(metrics.queued == 1000)
        #expect(harness.service.inspect().resources.first?.lastRequestSource == .cache)
    }
}
