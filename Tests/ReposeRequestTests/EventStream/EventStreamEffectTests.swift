import Foundation
import Repose
import ReposeTesting
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// What events do to resources (rule V3).
@MainActor
@Suite("Event stream effects", .checksLifetimes)
struct EventStreamEffectTests {
    let fixture = EventStreamFixture()
    var feed: StubEventStream { fixture.feed }
    var service: Service { fixture.service }

    /// Loads `resource` from a stub answering `json`, and waits for it.
    private func load(_ resource: Resource, json: [String: Any]) async {
        fixture.network.stub(.get, resource.url.absoluteString, json: json)
        _ = await resource.load().responseInfo
    }

    @Test("V3 invalidate: the observed resource the event names reloads; an unobserved one loads on loadIfNeeded")
    func invalidates() async throws {
        let watched = service.resource("/repos/1")
        let unwatched = service.resource("/repos/2")
        await load(watched, json: ["stars": 1])
        await load(unwatched, json: ["stars": 1])
        let observer = RecordingObserver()
        watched.addObserver(observer)
        fixture.network.stub(.get, watched.url.absoluteString, json: ["stars": 2])
        let stream = service.eventStream("/events").on("star", .invalidate())
        let events = StateLog()
        stream.events.observe(owner: events) { events.values.append($0.description) }
        await feed.open()
        await feed.send("event: star\ndata: {\"url\": \"/repos/1\"}\n\nevent: star\ndata: /repos/2\n\n")
        #expect(events.values == [#"star: {"url": "/repos/1"}"#, "star: /repos/2"])
        fixture.advance(0)
        let reload = try #require(watched.loadRequests.first)
        _ = await reload.responseInfo
        #expect(watched.jsonDict["stars"] as? Int == 2)
        #expect(observer.events == ["observerAdded", "requested", "newData(network)"])
        #expect(unwatched.loadRequests.isEmpty)
        #expect(unwatched.loadIfNeeded() != nil)
        unwatched.cancelLoadIfUnobserved()
    }

    @Test("V3 replaceContent: the event's JSON becomes the content, and observers hear newData(eventStream)")
    func replaces() async {
        let repo = service.resource("/repos/1")
        await load(repo, json: ["stars": 1])
        let observer = RecordingObserver()
        repo.addObserver(observer)
        let stream = service.eventStream("/events").on("repo", .replaceContent())
        stream.connection.observe(owner: observer) { _ in }
        await feed.open()
        await feed.send("event: repo\ndata: {\"url\": \"https://api.example.com/repos/1\", \"stars\": 5}\n\n")
        #expect(repo.jsonDict["stars"] as? Int == 5)
        #expect(observer.events == ["observerAdded", "newData(eventStream)"])
        #expect(repo.latestError == nil)
        #expect(repo.loadIfNeeded() == nil)  // fresh as of the event
    }

    @Test("V3 data the pipeline cannot parse changes nothing")
    func unparsableLeavesData() async {
        let repo = service.resource("/repos/1")
        await load(repo, json: ["stars": 1])
        let stream = service.eventStream("/events").on("repo", .replaceContent { _ in [repo] })
        stream.connection.observe(owner: repo) { _ in }
        await feed.open()
        await feed.send("event: repo\ndata: {not json\n\n")
        #expect(repo.jsonDict["stars"] as? Int == 1)
    }

    @Test("V3 reload: the resources a closure picks load now, observed or not")
    func reloads() async throws {
        let list = service.resource("/stars")
        let stream = service.eventStream("/events").on("reset", .reload { _ in [list] })
        stream.connection.observe(owner: list) { _ in }
        fixture.network.stub(.get, list.url.absoluteString, json: ["count": 0])
        await feed.open()
        await feed.send("event: reset\ndata: now\n\n")
        let load = try #require(list.loadRequests.first)
        _ = await load.responseInfo
        #expect(list.jsonDict["count"] as? Int == 0)
    }

    @Test("V3 a flood of reload events for one resource: one load in flight, and one more after it, at most")
    func reloadFlood() async throws {
        let list = service.resource("/stars")
        let stream = service.eventStream("/events").on("reset", .reload { _ in [list] })
        stream.connection.observe(owner: list) { _ in }
        let route = fixture.network.stub(.get, list.url.absoluteString, json: ["count": 0]).held()
        await feed.open()
        await feed.send(String(repeating: "event: reset\ndata: now\n\n", count: 1_000))
        await feed.send(String(repeating: "event: reset\ndata: now\n\n", count: 1_000))
        #expect(route.requests.count == 1)
        let first = try #require(list.loadRequests.first)
        route.releaseNext()
        _ = await first.responseInfo
        let second = try #require(list.loadRequests.first, "the events that came during the load ask for one more")
        #expect(second !== first)
        #expect(route.requests.count == 2)
        route.release()
        _ = await second.responseInfo
        #expect(route.requests.count == 2)
        #expect(list.loadRequests.isEmpty)
    }

    @Test("V3 an event naming a resource the service does not hold creates none")
    func unknownResourceUntouched() async {
        let stream = service.eventStream("/events").on("star", .invalidate()).on("star", .replaceContent())
        stream.connection.observe(owner: feed) { _ in }
        await feed.open()
        await feed.send("event: star\ndata: /repos/99\n\nevent: star\ndata: not a path\n\n")
        #expect(service.inspect().resources.count == 1)  // the stream's own
    }
}
