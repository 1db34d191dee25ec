import Foundation
import Repose
import ReposeTesting
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// A stream runs while observed, and nothing of it outlives its use (rule V4).
@MainActor
@Suite("Event stream lifetimes", .checksLifetimes)
struct EventStreamLifetimeTests {
    let fixture = EventStreamFixture()
    var feed: StubEventStream { fixture.feed }

    @Test("V4 nothing connects until something observes the stream")
    func idleUntilObserved() {
        let stream = fixture.service.eventStream("/events")
        #expect(feed.requests.isEmpty)
        #expect(stream.connection.value.description == "closed")
    }

    @Test("V6 one stream per URL while in use: two screens share one connection, and the last to leave closes it")
    func oneStreamPerURL() async {
        let first = fixture.service.eventStream("/events")
        let second = fixture.service.eventStream("events")  // the same URL, reached another way
        #expect(first === second)
        let one = first.events.observe { _ in }
        let other = second.connection.observe { _ in }
        await feed.open()
        #expect(feed.requests.count == 1)
        one.cancel()
        #expect(feed.isConnected)
        other.cancel()
        #expect(!feed.isConnected)
    }

    @Test("V6 a stream nobody holds any more is not handed out again: the next call makes a new one")
    func newStreamOnceDropped() {
        weak var dropped: EventStream?
        do {
            let stream = fixture.service.eventStream("/events")
            dropped = stream
        }
        #expect(dropped == nil)
        let next = fixture.service.eventStream("/events")
        #expect(next.connection.value.description == "closed")
    }

    @Test("V4 cancelling the last subscription closes the connection")
    func cancelCloses() async {
        let stream = fixture.service.eventStream("/events")
        let subscription = stream.events.observe { _ in }
        await feed.open()
        #expect(feed.isConnected)
        subscription.cancel()
        #expect(!feed.isConnected)
        #expect(stream.connection.value.description == "closed")
    }

    @Test(
        "V4 when the owner goes, the stream closes at its next event and resumes with Last-Event-ID when observed again"
    )
    func ownerGoneCloses() async {
        let stream = fixture.service.eventStream("/events")
        var owner: StateLog? = StateLog()
        stream.connection.observe(owner: owner!) { _ in }
        await feed.open()
        await feed.send("id: 3\ndata: x\n\n")
        owner = nil
        await feed.send(":ping\n\ndata: y\n\n")
        #expect(!feed.isConnected)
        let again = StateLog()
        stream.connection.observe(owner: again) { again.values.append($0.description) }
        #expect(feed.requests.last?.header("Last-Event-ID") == "3")
        #expect(again.values == ["connecting"])
    }

    @Test("V4 a stream waiting to reconnect stops when its owner goes")
    func ownerGoneWhileWaiting() async {
        let stream = fixture.service.eventStream("/events")
        var owner: StateLog? = StateLog()
        stream.connection.observe(owner: owner!) { _ in }
        await feed.fail()
        owner = nil
        fixture.advance(60)
        #expect(feed.requests.count == 1)
        #expect(fixture.scheduler.pendingCount == 0)
    }

    @Test("V4 dropping the stream closes it and frees it")
    func droppedStreamFreed() async {
        weak var weakStream: EventStream?
        weak var weakRunner: EventStreamRunner?
        let owner = StateLog()
        do {
            let stream = fixture.service.eventStream("/events")
            stream.connection.observe(owner: owner) { _ in }
            await feed.open()
            weakStream = stream
            weakRunner = stream.runner
        }
        #expect(weakStream == nil)
        #expect(weakRunner == nil)
        #expect(!feed.isConnected)
    }

    @Test("V4 dropping the service closes its streams; nothing is left running or held")
    func droppedServiceCloses() async {
        weak var weakService: Service?
        weak var weakCore: ServiceCore?
        let network = StubNetworkingProvider()
        let feed = network.stubEventStream("https://api.example.com/events")
        let states = StateLog()
        var stream: EventStream?
        do {
            let service = Service(
                baseURL: "https://api.example.com",
                options: .init(networking: network, reconnected: nil, becameActive: nil))
            weakService = service
            weakCore = service.core
            stream = service.eventStream("/events")
            stream?.connection.observe(owner: states) { states.values.append($0.description) }
            await feed.open()
        }
        #expect(weakService == nil)
        #expect(!feed.isConnected)
        #expect(states.values == ["connecting", "open", "closed"])
        stream = nil
        #expect(weakCore == nil)
    }
}
