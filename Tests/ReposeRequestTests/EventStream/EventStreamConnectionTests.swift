import Foundation
import Repose
import ReposeTesting
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// Connecting, reconnecting and ending, over the stub provider on virtual time (rules V2, V4, V5).
@MainActor
@Suite("Event stream connection", .checksLifetimes)
struct EventStreamConnectionTests {
    let fixture = EventStreamFixture()
    var feed: StubEventStream { fixture.feed }

    @Test("V2 observing connects with Accept text/event-stream; a 200 event stream opens it")
    func connects() async throws {
        let states = StateLog()
        let stream = fixture.observedStream(owner: states, states: states)
        let request = try #require(feed.requests.first)
        #expect(request.header("Accept") == "text/event-stream")
        #expect(request.header("Last-Event-ID") == nil)
        await feed.open()
        #expect(states.values == ["connecting", "open"])
        #expect(stream.connection.value.isOpen)
    }

    @Test("V2 after the body ends it reconnects after the server's retry, sending Last-Event-ID")
    func reconnectsWithLastEventID() async throws {
        let states = StateLog()
        let stream = fixture.observedStream(owner: states, states: states)
        await feed.open()
        await feed.send("retry: 500\nid: 41\ndata: a\n\nid: 42\ndata: b\n\n")
        await feed.end()
        #expect(states.values == ["connecting", "open", "connecting"])
        fixture.advance(0.499)
        #expect(feed.requests.count == 1)
        fixture.advance(0.001)
        #expect(feed.requests.count == 2)
        #expect(feed.requests.last?.header("Last-Event-ID") == "42")
        #expect(states.values == ["connecting", "open", "connecting"])  // one "connecting" for the wait and the attempt
        #expect(stream.lastEventID == "42")
    }

    /// The times, from the start, at which `count` more attempts connected, when each is opened and ended at once
    /// (after `lasting` seconds) with `retry` given first.
    private func reconnectTimes(
        _ count: Int, lasting: Double = 0, retry: String = "retry: 0\n\n"
    ) async -> [Double] {
        var times: [Double] = []
        var elapsed = 0.0
        for index in 0..<count {
            await feed.open()
            if index == 0 { await feed.send(retry) }
            await feed.send("data: hello\n\n")
            fixture.advance(lasting)
            elapsed += lasting
            await feed.end()
            let before = feed.requests.count
            while feed.requests.count == before, elapsed < 1_000 {
                fixture.advance(0.125)
                elapsed += 0.125
            }
            times.append(elapsed)
        }
        return times
    }

    @Test("V2 a retry below the minimum waits the minimum: after retry: 0 and a stream that lasted, 0.5 s")
    func retryFloor() async {
        let states = StateLog()
        let stream = fixture.observedStream(owner: states, states: states)
        defer { withExtendedLifetime(stream) {} }
        // Each stream stays open 2 s: long enough not to count as ending at once.
        #expect(await reconnectTimes(3, lasting: 2) == [2.5, 5, 7.5])
    }

    @Test("V2 a stream that keeps ending at once backs off: the wait doubles from the minimum, up to a minute")
    func quickEndsBackOff() async {
        let states = StateLog()
        let stream = fixture.observedStream(owner: states, states: states)
        defer { withExtendedLifetime(stream) {} }
        let times = await reconnectTimes(10)
        let waits = zip(times, [0] + times).map { $0 - $1 }
        #expect(waits == [0.5, 1, 2, 4, 8, 16, 32, 60, 60, 60])
        // A stream that then stays open for a while brings the wait back to the retry interval.
        #expect(await reconnectTimes(1, lasting: 2).first.map { $0 - 2 } == 0.5)
    }

    @Test("V2 while the server keeps failing, the wait doubles: 3, 6, 12 s, and an open stream resets it")
    func backsOff() async {
        let states = StateLog()
        let stream = fixture.observedStream(owner: states, states: states)
        defer { withExtendedLifetime(stream) {} }
        var connectTimes: [Double] = []
        var elapsed = 0.0
        for _ in 0..<3 {
            await feed.open(status: 503, headers: [:])
            let before = feed.requests.count
            while feed.requests.count == before, elapsed < 100 {
                fixture.advance(0.5)
                elapsed += 0.5
            }
            connectTimes.append(elapsed)
        }
        #expect(connectTimes == [3, 9, 21])
        #expect(states.values.last == "connecting")
        await feed.open()
        fixture.advance(1)  // open long enough not to count as ending at once
        await feed.fail()
        fixture.advance(3)
        #expect(feed.requests.count == 5)  // back to the plain retry interval after an open stream
    }

    @Test("V2 a 204 closes the stream for good: no reconnection")
    func noContentEnds() async {
        let states = StateLog()
        let stream = fixture.observedStream(owner: states, states: states)
        defer { withExtendedLifetime(stream) {} }
        await feed.open(status: 204, headers: [:])
        fixture.advance(600)
        #expect(feed.requests.count == 1)
        #expect(states.values == ["connecting", "closed"])
    }

    @Test("V2 a content type other than text/event-stream fails the stream for good")
    func wrongContentTypeEnds() async {
        let states = StateLog()
        let stream = fixture.observedStream(owner: states, states: states)
        defer { withExtendedLifetime(stream) {} }
        await feed.open(status: 200, headers: ["Content-Type": "text/plain"])
        fixture.advance(600)
        #expect(feed.requests.count == 1)
        #expect(stream.connection.value.error != nil)
        #expect(!feed.isConnected)
    }

    @Test("V2 a 404 fails the stream for good; a transport error before opening retries")
    func clientErrorEndsTransportErrorRetries() async {
        let states = StateLog()
        let stream = fixture.observedStream(owner: states, states: states)
        defer { withExtendedLifetime(stream) {} }
        await feed.fail()
        #expect(stream.connection.value.error != nil)
        fixture.advance(3)
        #expect(feed.requests.count == 2)
        await feed.open(status: 404, headers: [:])
        fixture.advance(600)
        #expect(feed.requests.count == 2)
        #expect(stream.connection.value.error?.httpStatusCode == 404)
    }

    @Test("V1 an event that grows past maximumResponseSize fails the attempt, which retries, rather than fill memory")
    func oversizedEventFails() async {
        fixture.service.configure { $0.maximumResponseSize = 64 }
        let states = StateLog()
        let stream = fixture.observedStream(owner: states, states: states)
        defer { withExtendedLifetime(stream) {} }
        await feed.open()
        await feed.send("data: " + String(repeating: "x", count: 40) + "\n")
        #expect(stream.connection.value.isOpen)
        await feed.send("data: " + String(repeating: "y", count: 40))
        #expect(stream.connection.value.error?.cause is RequestError.Cause.ResponseTooLarge)
        #expect(!feed.isConnected)
        fixture.advance(3)
        #expect(feed.requests.count == 2)
    }

    @Test("V2 a stream at an invalid URL fails for good without sending anything")
    func invalidURLFails() {
        let service = Service(options: .init(networking: fixture.network, reconnected: nil, becameActive: nil))
        LifetimeCheck.track(service)
        let stream = service.eventStream("/events")
        let subscription = stream.connection.observe { _ in }
        #expect(stream.connection.value.error?.cause is RequestError.Cause.InvalidURL)
        #expect(fixture.network.requests.isEmpty && feed.requests.isEmpty)
        subscription.cancel()
    }

    @Test("V4 the service's reconnect signal reconnects a waiting stream at once")
    func reconnectSignal() async {
        let states = StateLog()
        let stream = fixture.observedStream(owner: states, states: states)
        defer { withExtendedLifetime(stream) {} }
        await feed.fail()
        await feed.fail()  // nothing under way: ignored
        #expect(feed.requests.count == 1)
        fixture.reconnect.send(())
        #expect(feed.requests.count == 2)
    }

    @Test("V5 the stream's request carries configured headers, and a 401 refreshes the credential once")
    func authenticates() async throws {
        let auth = Authenticator(credential: "old") { _ in "new" }
        fixture.service.configure {
            $0.headers["X-App"] = "demo"
            $0.authenticator = auth
        }
        let states = StateLog()
        let stream = fixture.observedStream(owner: states, states: states)
        #expect(feed.requests.first?.header("Authorization") == "Bearer old")
        #expect(feed.requests.first?.header("X-App") == "demo")
        await feed.open(status: 401, headers: [:])
        await waitUntil { feed.requests.count >= 2 }
        let again = try #require(feed.requests.dropFirst().first)
        #expect(again.header("Authorization") == "Bearer new")
        await feed.open()
        #expect(stream.connection.value.isOpen)
    }
}
