import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Event streams over real HTTP through `URLSessionProvider`, against `EventStreamServer`; waits between attempts run
/// on virtual time (rules V1, V2).
@MainActor
@Suite("Event streams over loopback HTTP", .checksLifetimes, .hangLimit)
final class EventStreamLoopbackTests {
    let server: EventStreamServer
    let scheduler = TestScheduler(now: .seconds(1000))
    let service: Service
    let log = StateLog()

    init() async throws {
        server = try await EventStreamServer()
        service = Service(
            baseURL: server.base,
            options: .init(networking: URLSessionProvider(), scheduler: scheduler, reconnected: nil, becameActive: nil))
        LifetimeCheck.track(service)
    }

    /// A stream at `path` whose events and states go to ``log``, as `event <data>` and `state <state>`.
    private func stream(_ path: String) -> EventStream {
        let stream = service.eventStream(path)
        stream.connection.observe(owner: log) { [log] in log.values.append("state \($0.description)") }
        stream.events.observe(owner: log) { [log] in log.values.append("event \($0.data)") }
        return stream
    }

    /// Yields the main actor until `condition` holds or ``Patience/wait`` passes; records an issue if it never holds.
    private func eventually(
        _ condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> Bool {
        let deadline = ContinuousClock.now + Patience.wait
        while !condition() {
            if ContinuousClock.now > deadline {
                Issue.record("the condition never held", sourceLocation: sourceLocation)
                return false
            }
            await Task.yield()
        }
        return true
    }

    /// The server's request log: path and `Last-Event-ID` of each request.
    private func requestLog() async -> [[String]] {
        let text =
            await service.resource(absoluteURL: server.base + "/log").load().responseInfo.response.entity?
            .text ?? ""
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String]
        }
    }

    @Test("V2 over HTTP: the stream reconnects after the server's retry (0.5 s at least), with Last-Event-ID, resuming")
    func resumes() async throws {
        let live = stream("/sse/resume")
        #expect(await eventually { log.values.contains("state connecting") && log.values.count >= 5 })
        #expect(log.values == ["state connecting", "state open", "event first", "event second", "state connecting"])
        scheduler.advance(by: .milliseconds(499))  // the server's retry is 100 ms, under the minimum of 500
        #expect(log.values.last == "state connecting")
        scheduler.advance(by: .milliseconds(1))
        #expect(await eventually { log.values.last == "event third" })
        #expect(live.connection.value.isOpen && live.lastEventID == "3")
        let requests = await requestLog().filter { $0.first == "/sse/resume" }
        #expect(requests == [["/sse/resume", ""], ["/sse/resume", "2"]])
        withExtendedLifetime(live) {}  // dropping the stream closes it, and the server's pinging ends
    }

    @Test("V1 over HTTP: a CRLF split across TCP writes is one line end")
    func splitLineEnds() async {
        let live = stream("/sse/split")
        #expect(await eventually { log.values.contains { $0.hasPrefix("event") } })
        #expect(log.values.filter { $0.hasPrefix("event") } == ["event a\nb"])
        withExtendedLifetime(live) {}
    }

    @Test("V2 over HTTP: two 503s back off 3 then 6 seconds, then the stream opens")
    func backsOffThenOpens() async {
        let live = stream("/sse/flaky")
        #expect(await eventually { log.values.count == 2 })
        #expect(live.connection.value.error?.httpStatusCode == 503)
        scheduler.advance(by: .seconds(3))
        #expect(await eventually { log.values.count == 4 })
        scheduler.advance(by: .seconds(5))
        #expect(log.values.count == 4)  // the second wait is 6 seconds
        scheduler.advance(by: .seconds(1))
        #expect(await eventually { log.values.contains("event finally") })
    }

    @Test("V1 a provider over the app's own URLSession reads a stream once its body ends, through that session")
    func appSessionReadsWhole() async {
        let appSession = URLSession(configuration: URLSessionProvider.defaultConfiguration)  // no URLCache: see E11
        defer { appSession.finishTasksAndInvalidate() }
        let own = Service(
            baseURL: server.base,
            options: .init(
                networking: URLSessionProvider(session: appSession), scheduler: scheduler, reconnected: nil,
                becameActive: nil))
        LifetimeCheck.track(own)
        let live = own.eventStream("/sse/once")
        live.events.observe(owner: log) { [log] in log.values.append("event \($0.data)") }
        #expect(await eventually { log.values == ["event event 1"] })
        #expect(live.lastEventID == "1")
    }

    @Test("V5 over HTTP: a 401 renews the credential once, and the stream connects again with the new one")
    func authenticates() async {
        var refreshes = 0
        let auth = Authenticator(credential: "stale") { _ in
            refreshes += 1
            return "fresh"
        }
        service.configure { $0.authenticator = auth }
        let live = stream("/sse/auth")
        #expect(await eventually { log.values.contains("event welcome") })
        #expect(refreshes == 1)
        let attempts = await requestLog().filter { $0.first == "/sse/auth" }.count
        #expect(attempts == 2)
        withExtendedLifetime(live) {}
    }

    @Test(
        "V2 over HTTP: a 204 closes and a text/plain answer fails, neither reconnects",
        arguments: [
            "/sse/nocontent", "/sse/plain",
        ])
    func endsForGood(path: String) async {
        let live = stream(path)
        #expect(await eventually { log.values.count == 2 })
        scheduler.advance(by: .seconds(600))
        let attempts = await requestLog().filter { $0.first == path }.count
        #expect(attempts == 1)
        #expect(path == "/sse/nocontent" ? log.values.last == "state closed" : live.connection.value.error != nil)
    }
}
