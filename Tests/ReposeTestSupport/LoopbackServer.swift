import Foundation
import Testing

/// A real HTTP/1.1 server on a loopback address (127.0.0.1 unless told otherwise) for integration tests: a python3
/// standard-library script, one process per server, on a free port.
///
/// Start one per test: a `final class` suite creates it in `init() async throws`; it stops in its own `deinit`. The
/// script also exits by itself when its standard input closes, which happens when this process is gone, however it
/// ends: no server outlives the test run, and none ends before it, however long a slow machine makes a test wait.
/// Routes:
///
/// | route | answer |
/// |---|---|
/// | any method `/echo` | 200, JSON: `method`, `path`, `query`, `headers` (names lowercased), `body`, `bodyLength` |
/// | `/status/N` | status N (200–599), text `status N` (none for 204); `?body=json` for `{"status": N, …}` |
/// | `/status/N?body=none` | status N with `Content-Length: 0` and no other header (a 301 without `Location`) |
/// | `/status/N?auth=SCHEME` | status N with `WWW-Authenticate: SCHEME`, text `credentials, please` |
/// | `/etag/TAG` | 200 with `ETag: "TAG"`; 304 when `If-None-Match` is `"TAG"` |
/// | `/feed?style=S&size=N&total=T` | a paged feed, newest first: T items (10 unless given) `{"id", "name"}`, N a page (3 unless given), each page with `ETag` and a `304` to it. `style=link` (the default): `?page=K` pages, a JSON array each, with `Link: <…>; rel="next"` (relative); `style=number`: the same without `Link`, past the end an empty array; `style=cursor`: `{"items": […], "next": "ID"}`, the next page at `?cursor=ID` |
/// | `/feed/bump` | one new item at the top of the feed: every item moves down one place, every `ETag` changes |
/// | `/feed/fail?page=K` (or `cursor=ID`) | that feed page answers 500 once |
/// | `/feed/stats` | `{"requests": N, "notModified": M}`: feed page requests so far, and how many were answered 304 |
/// | `/drop?announce=N&send=M` | announces N body bytes, sends M, then closes the connection; `/drop/events` the same as `text/event-stream` |
/// | `/connections` | JSON `{"open": N, "peak": M}`: the clients' connections open now, and the most at once since the start |
/// | `/reset?at=headers` | sends half a status line and headers, then resets the connection (TCP RST) |
/// | `/reset?at=body` | announces 1000 body bytes, sends 100, then resets the connection |
/// | `/hang?at=STAGE&type=events` | reaches STAGE (`request`: nothing sent; `headers`: headers for 10 bytes sent; `body`: 5 of them sent), marks `hang STAGE`, then waits until the client goes; as `text/event-stream` with `type=events`, else `text/plain` |
/// | `/bytes/N` | N bytes of body (at most 64 MB); to a HEAD, only their `Content-Length` |
/// | `/chunked/N` | N bytes of body in chunked transfer encoding, so without a length up front |
/// | `/gzip?size=N` | `Content-Encoding: gzip`, whatever the request accepts: a small body that inflates to N bytes (at most 1 GiB) |
/// | `/header?bytes=N` | 200 with an `X-Large` header of N bytes (at most 16 MB) |
/// | `/cookie?value=V` | 200 with `Set-Cookie: session=V; Path=/` |
/// | `/cacheable` | 200 with `Cache-Control: public, max-age=3600`, text `count N`: how many times it was asked |
/// | `/redirect?to=URL&status=N` | status N (302 unless given) with `Location: URL` (`/echo` unless given) |
/// | `/redirect/loop?status=N` | status N (302 unless given) to itself, query included |
/// | any method `/multipart` | parses a `multipart/form-data` body strictly (CRLF framing, RFC 7578): 200 with `parts` (each `name`, `filename`, `type`, `length`, `crc32`, and `text` when at most 256 bytes), `bodyLength`, `contentLength`, `transferEncoding`; 400 with `error` for a malformed body |
/// | any method `/discard` | reads the body, answers `{"received": N}` |
/// | any method `/sink` | reads the body as it arrives without keeping it (chunked or not), answers `{"received": N, "head", "tail", "contentType", "chunked"}`: its first and last 512 bytes as text |
/// | `/store/PATH` | a JSON store: GET answers the value at PATH (`ETag: "vN"`, N its version), or without one the values directly under it as an array (`ETag: "cN"`, N the store's write count), 304 to a matching `If-None-Match`; PUT stores the body, PATCH merges it (JSON merge patch), POST stores it at `PATH/N` with `"id": N`, DELETE removes; a write answers the value. `?status=S` answers S instead; `?hold=NAME` marks `held NAME` and waits for `/store-release/NAME` before answering. Every request is logged |
/// | `/store-log` | the store's log, oldest first: `{"method", "path", "body", "key" (Idempotency-Key), "authorization", "contentType"}` |
/// | `/store-offline?on=1` (or `0`) | while on, every `/store` request is reset (TCP RST) before any answer: a transport error |
/// | `/store-release/NAME` | lets the requests held as NAME answer |
/// | `/flaky/NAME?fails=N&status=S&after=A` | the first N requests for NAME (1 unless given) get status S (503 unless given), with `Retry-After: A` when given; later ones 200; the text is `attempt K` |
/// | `/headers/NAME?H=V&…&status=S` | status S (200 unless given) with every other query parameter as a response header, text `headers NAME`; 304 when `If-None-Match` is the `ETag` given, or, without one, when `If-Modified-Since` is the `Last-Modified` given; counted as NAME for `/count/NAME` |
/// | `/count/NAME` | how many requests `/flaky/NAME` had, as text; `/count/refresh` and `/count/unauthorized` count the routes below. Each counted request marks `count NAME N`, N its count |
/// | `/auth/private/NAME?token=T` | 200 `private NAME` when `Authorization` is `Bearer T` (`fresh-token` unless given), else 401 |
/// | `/auth/refresh?token=T&hold=NAME` | 200 with the text T (`fresh-token` unless given); with `hold`, marks `held NAME` and waits for `/store-release/NAME` first |
/// | `/raw?kind=K` | bytes no correct server sends, then a close: `status` (`HTTP/1.1 abc OK`), `version` (`HTTP/9.9 200 OK`), `garbage` (no status line) |
/// | `/drip?bytes=N&chunks=K&length=0&hold=NAME` | 200 with N bytes (20,000) in K writes (20); with `Content-Length` unless `length=0`, then ended by closing; with `hold`, marks `held NAME` (and `count held NAME N` for the Nth request held) halfway and sends the second half once `/store-release/NAME` lets it |
/// | `/lines?count=N&pad=P&split=1&hold=NAME&gone=NAME&cut=1` | 200 `application/x-ndjson`: N lines (3) `{"n": I}` (with a `pad` of P letters), ended by closing; with `split=1` each line in two writes; with `hold`, marks `held NAME` after the first line and sends the rest once `/store-release/NAME` lets it; with `gone`, marks `gone NAME` once the client closed the connection before the end; with `cut=1`, announces a longer `Content-Length` than it sends, so that the client sees the connection lost |
/// | `/pace/N?name=NAME` | N bytes of body as fast as the client reads them; mark `held NAME` once a write waited 1.5 s (the client stopped reading) |
/// | `/ranged/N?name=X&cut=M&ranges=0` | N bytes (each `(i * 31 + 7) % 251`) with `ETag: "rV"` and `Accept-Ranges: bytes`: a `Range: bytes=S-` whose `If-Range` matches gets a 206 from S; `cut` closes the connection after byte M of the first request for X; `ranges=0` ignores ranges and says nothing of them; `wrongstart=1` answers a range with a `Content-Range` that claims byte 0; marks `ranged X from S` |
/// | `/ranged-change/X` | a new version of X's body: its ETag changes |
/// | `/large/N?cut=M` | N bytes of body (at most 1 GiB) made on the fly, with their `Content-Length`; with `cut`, only the first M are sent, then the connection closes |
///
/// A mark is a line the script prints when a request reaches a point a test wants to wait for (see
/// ``waitForMark(_:within:sourceLocation:)``).
final class LoopbackServer: @unchecked Sendable {
    // `@unchecked Sendable`: `port`, `process`, `input` and `exitSignal` are set once in `init`; `isStopped` is only
    // touched under `lock`.

    /// The loopback address the server listens on.
    let host: String
    /// The port the server listens on.
    let port: Int
    private let process = Process()
    private let input = Pipe()
    private let lock = NSLock()
    private var isStopped = false
    /// Fires when the server's process ends.
    let exitSignal = ExitSignal()
    /// The marks the script printed so far.
    private let marks = Marks()

    /// Starts a server and waits until it listens. Waiting does not block a thread of the test's executor, so
    /// servers for tests that run in parallel start in parallel.
    ///
    /// - Parameter host: The address to listen on: one of 127.0.0.0/8, all of which are loopback on Linux (on
    ///   macOS only 127.0.0.1 is configured unless an alias is added).
    init(host: String = "127.0.0.1") async throws {
        self.host = host
        let script = FileManager.default.temporaryDirectory
            .appendingPathComponent("repose-loopback-\(UUID().uuidString).py")
        try Data(Self.script.utf8).write(to: script)
        defer { try? FileManager.default.removeItem(at: script) }

        let (executable, arguments) = Self.python()
        process.executableURL = executable
        process.arguments = arguments + ["-I", "-S", script.path, host]
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.terminationHandler = { [exitSignal] _ in exitSignal.fire() }
        try process.run()

        let marks = self.marks
        let line = await withCheckedContinuation { continuation in
            Self.readLines(of: output.fileHandleForReading, first: continuation, then: marks)
        }
        guard let line, let port = Int(line), port > 0 else {
            try? input.fileHandleForWriting.close()
            if process.isRunning { process.terminate() }
            throw StartFailure()
        }
        self.port = port
    }

    deinit {
        stop()
    }

    /// The URL of `path` (which starts with `/`, and may carry a query) on this server.
    func url(_ path: String) -> URL {
        URL(string: "http://\(host):\(port)\(path)") ?? URL(fileURLWithPath: "/")
    }

    /// Stops the server: closes its standard input and terminates it. Returns at once; see ``exited()``.
    /// Calling it again does nothing.
    func stop() {
        let wasRunning = lock.withLock {
            defer { isStopped = true }
            return !isStopped
        }
        guard wasRunning else { return }
        try? input.fileHandleForWriting.close()
        if process.isRunning {
            process.terminate()
        }
    }

    /// Waits until the server's process has ended.
    func exited() async {
        await exitSignal.wait()
    }

    /// Waits until the script has printed `mark name`; `false`, with an issue recorded, if it did not in time.
    @discardableResult
    func waitForMark(
        _ name: String, within timeout: Duration = Patience.wait, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> Bool {
        let reached = await marks.wait(for: name, within: timeout)
        if !reached {
            Issue.record(
                "timed out after \(timeout) waiting for the server's mark \(name)", sourceLocation: sourceLocation)
        }
        return reached
    }

    /// Whether the server's process is still running.
    var isRunning: Bool {
        process.isRunning
    }

    /// Why a server could not start.
    struct StartFailure: Error, CustomStringConvertible {
        var description: String { "the loopback server did not report its port (is python3 installed?)" }
    }

    /// The system's python3 when it is at a usual place (fast to start), else whatever `env` finds.
    private static func python() -> (URL, [String]) {
        for path in ["/usr/bin/python3", "/usr/local/bin/python3", "/opt/homebrew/bin/python3"]
        where FileManager.default.isExecutableFile(atPath: path) {
            return (URL(fileURLWithPath: path), [])
        }
        return (URL(fileURLWithPath: "/usr/bin/env"), ["python3"])
    }
}

extension LoopbackServer {
    /// Remembers that a process ended and wakes those waiting for it. Set up before the process starts, so the
    /// end is never missed.
    final class ExitSignal: @unchecked Sendable {
        // `@unchecked Sendable`: both properties are only touched under `lock`.
        private let lock = NSLock()
        private var hasFired = false
        private var waiters: [CheckedContinuation<Void, Never>] = []

        func fire() {
            let waiting = lock.withLock {
                hasFired = true
                defer { waiters = [] }
                return waiters
            }
            for waiter in waiting {
                waiter.resume()
            }
        }

        func wait() async {
            await withCheckedContinuation { continuation in
                let fired = lock.withLock {
                    if !hasFired { waiters.append(continuation) }
                    return hasFired
                }
                if fired { continuation.resume() }
            }
        }
    }
}
