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
        // The JSON that names the first resource is read off the main actor: its effect comes a few turns later.
        await waitUntil { !watched.isUpToDate }
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
        await waitUntil { repo.jsonDict["stars"] as? Int == 5 }
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
        await waitForEffects()
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
        // Effects come a few main-actor turns after their event (a run once failed here finding no load yet).
        await waitUntil { !list.loadRequests.isEmpty }
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
        await waitForEffects()
        #expect(service.inspect().resources.count == 2)  // the stream's own, and the marker
    }

    /// Sends a marker event that replaces the content of `/marker`, and waits until it has: effects run in order,
    /// so every effect of the events sent before it has run too.
    private func waitForEffects() async {
        let marker = service.resource("/marker")
        let stream = service.eventStream("/events")
        if stream.runner.effects["marker"] == nil { stream.on("marker", .replaceContent { _ in [marker] }) }
        await feed.send("event: marker\ndata: {\"done\": true}\n\n")
        await waitUntil { marker.jsonDict["done"] as? Bool == true }
    }

    @Test("V3 a replaceContent event's data is parsed by the resource's pipeline off the main actor, as a load's body")
    func parsedOffTheMainActor() async {
        let repo = service.resource("/repos/1")
        let parses = ThreadLog()
        service.configure("/repos/*") { $0.pipeline[.model].add(ThreadRecordingTransformer(log: parses)) }
        let stream = service.eventStream("/events").on("repo", .replaceContent())
        stream.connection.observe(owner: parses) { _ in }
        await feed.open()
        await feed.send("event: repo\ndata: {\"url\": \"/repos/1\", \"stars\": 5}\n\n")
        await waitUntil { repo.jsonDict["stars"] as? Int == 5 }
        #expect(parses.onMain == [false])
    }

    @Test(
        "V3 a flood of events reaches observers in turns, in order, and main-actor work queued meanwhile runs between")
    func floodInTurns() async {
        let stream = service.eventStream("/events")
        let seen = EventCount()
        var seenWhenOtherWorkRan: Int?
        stream.events.observe(owner: seen) { event in
            if seen.ids.isEmpty {  // main-actor work that the app queues while the flood is delivered
                DispatchQueue.main.async { MainActor.assumeIsolated { seenWhenOtherWorkRan = seen.ids.count } }
            }
            seen.ids.append(Int(event.id) ?? -1)
        }
        await feed.open()
        let count = 5 * EventStreamRunner.eventsPerTurn
        await feed.send((1...count).map { "id: \($0)\ndata: x\n\n" }.joined())
        await waitUntil { seen.ids.count == count && seenWhenOtherWorkRan != nil }
        #expect(seen.ids == Array(1...count))
        // It ran after the first turn, not after the whole flood.
        #expect((1...EventStreamRunner.eventsPerTurn).contains(seenWhenOtherWorkRan ?? 0))
    }

    @Test("V2 V3 the end of an attempt is told after the events it brought, however many wait")
    func endAfterEvents() async {
        let states = StateLog()
        let stream = fixture.observedStream(owner: states, states: states)
        stream.events.observe(owner: states) { states.values.append($0.id) }
        await feed.open()
        let count = 3 * EventStreamRunner.eventsPerTurn
        await feed.send((1...count).map { "id: \($0)\ndata: x\n\n" }.joined())
        await feed.end()
        await waitUntil { states.values.last == "connecting" }
        #expect(states.values.count == count + 3)  // connecting, open, the events, connecting
        #expect(states.values.suffix(2) == ["\(count)", "connecting"])
    }
}

/// Event ids as an observer saw them.
@MainActor
final class EventCount {
    var ids: [Int] = []
}

/// Whether each parse ran on the main queue.
final class ThreadLog: @unchecked Sendable {
    // Safe: `values` is only touched under `lock`.
    private let lock = NSLock()
    private var values: [Bool] = []

    func record() { lock.withLock { values.append(MainQueueProbe.isCurrent) } }
    var onMain: [Bool] { lock.withLock { values } }
}

/// Passes responses through, noting where it ran.
struct ThreadRecordingTransformer: ResponseTransformer {
    let log: ThreadLog

    func process(_ response: Response) -> Response {
        log.record()
        return response
    }
}
