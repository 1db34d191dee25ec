import Foundation
import Repose
import Testing

/// Event streams against sse-starlette under uvicorn (`Servers/sse_app.py`), through `URLSessionProvider`: a server
/// nobody here wrote, with its own line ends, pings and multi-line data (rules V1, V2, V3). Waits between attempts
/// run on virtual time.
@MainActor
@Suite("Event streams against sse-starlette", .enabled(if: InteropServers.eventStream != nil))
final class EventStreamInteropTests {
    let scheduler = TestScheduler(now: .seconds(1000))
    let service: Service
    let log = Log()

    /// What the streams did, as text.
    final class Log {
        var lines: [String] = []
    }

    init() {
        service = Service(
            baseURL: InteropServers.eventStream?.absoluteString,
            options: .init(networking: URLSessionProvider(), scheduler: scheduler, reconnected: nil, becameActive: nil))
    }

    private func stream(_ path: String) -> EventStream {
        let stream = service.eventStream(path)
        stream.connection.observe(owner: log) { [log] in log.lines.append("state \($0.description)") }
        stream.events.observe(owner: log) { [log] in log.lines.append("\($0)") }
        return stream
    }

    /// Yields the main actor until `condition` holds or fifteen seconds pass; records an issue if it never holds.
    private func eventually(_ condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(15)
        while !condition() {
            if ContinuousClock.now > deadline {
                Issue.record("the condition never held; log: \(log.lines)", sourceLocation: sourceLocation)
                return false
            }
            await Task.yield()
        }
        return true
    }

    @Test("V1 V3 events with types, ids, retry and two-line data arrive whole, and replace the resource they name")
    func events() async throws {
        let repo = service.resource("/repos/1")
        repo.overrideLocalData(
            with: Entity<Any>(content: ["stars": 1] as [String: Any], contentType: "application/json"))
        let live = stream("/events").on("repo", .replaceContent())
        #expect(await eventually { log.lines.count >= 6 })
        #expect(
            Array(log.lines.prefix(6)) == [
                "state connecting", "state open", "note #1: first", "note #2: line one\nline two",
                #"repo #3: {"url": "/repos/1", "stars": 5}"#, "state connecting",
            ])
        #expect(repo.jsonDict["stars"] as? Int == 5)
        #expect(live.lastEventID == "3")
    }

    @Test("V2 after the server's retry the stream reconnects with Last-Event-ID and sse-starlette resumes from it")
    func resumes() async throws {
        let live = stream("/resume")
        #expect(await eventually { log.lines.last == "state connecting" && log.lines.count >= 5 })
        // The server asks for 250 ms; the client waits its floor of 500 ms, and only that (one quick end in a row).
        scheduler.advance(by: .milliseconds(499))
        #expect(log.lines.last == "state connecting")
        scheduler.advance(by: .milliseconds(1))
        #expect(await eventually { log.lines.last == "message #3: resumed after 2" })
        #expect(live.connection.value.isOpen)
    }

    @Test("V2 a 503 from the server fails the attempt and the stream waits to try again")
    func refused() async throws {
        let live = stream("/refuse")
        #expect(await eventually { live.connection.value.error != nil })
        #expect(live.connection.value.error?.httpStatusCode == 503)
    }
}
