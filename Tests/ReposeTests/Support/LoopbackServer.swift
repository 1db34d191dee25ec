import Foundation

/// A real HTTP/1.1 server on 127.0.0.1 for integration tests: a python3 standard-library script, one process
/// per server, on a free port.
///
/// Start one per test: a `final class` suite creates it in `init() async throws`; it stops in its own `deinit`. The
/// script also exits by itself when its standard input closes (this process is gone) and after
/// ``maximumLifetime`` seconds, so no server outlives the test run. Routes:
///
/// | route | answer |
/// |---|---|
/// | any method `/echo` | 200, JSON: `method`, `path`, `query`, `headers` (names lowercased), `body`, `bodyLength` |
/// | `/status/N` | status N (200–599), text `status N` (none for 204); `?body=json` for `{"status": N, …}` |
/// | `/status/N?auth=SCHEME` | status N with `WWW-Authenticate: SCHEME`, text `credentials, please` |
/// | `/etag/TAG` | 200 with `ETag: "TAG"`; 304 when `If-None-Match` is `"TAG"` |
/// | `/slow?ms=N` | waits N ms (at most 10 s), then 200; with `&first=1`, sends the first half of the body first |
/// | `/drop?announce=N&send=M` | announces N body bytes, sends M, then closes the connection |
/// | `/bytes/N` | N bytes of body (at most 64 MB) |
/// | `/chunked/N` | N bytes of body in chunked transfer encoding, so without a length up front |
/// | any method `/discard` | reads the body, answers `{"received": N}` |
final class LoopbackServer: @unchecked Sendable {
    // `@unchecked Sendable`: `port`, `process`, `input` and `exitSignal` are set once in `init`; `isStopped` is only
    // touched under `lock`.

    /// The hard limit on a server's lifetime, in seconds, enforced by the script itself.
    static let maximumLifetime = 120

    /// The port the server listens on, on 127.0.0.1.
    let port: Int
    private let process = Process()
    private let input = Pipe()
    private let lock = NSLock()
    private var isStopped = false
    /// Fires when the server's process ends.
    let exitSignal = ExitSignal()

    /// Starts a server and waits until it listens. Waiting does not block a thread of the test's executor, so
    /// servers for tests that run in parallel start in parallel.
    init() async throws {
        let script = FileManager.default.temporaryDirectory
            .appendingPathComponent("repose-loopback-\(UUID().uuidString).py")
        try Data(Self.script.utf8).write(to: script)
        defer { try? FileManager.default.removeItem(at: script) }

        let (executable, arguments) = Self.python()
        process.executableURL = executable
        process.arguments = arguments + ["-I", "-S", script.path, String(Self.maximumLifetime)]
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.terminationHandler = { [exitSignal] _ in exitSignal.fire() }
        try process.run()

        let line = await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: Self.firstLine(of: output.fileHandleForReading)) }.start()
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
        URL(string: "http://127.0.0.1:\(port)\(path)") ?? URL(fileURLWithPath: "/")
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

    /// Whether the server's process is still running.
    var isRunning: Bool {
        process.isRunning
    }

    /// Why a server could not start.
    struct StartFailure: Error, CustomStringConvertible {
        var description: String { "the loopback server did not report its port (is python3 installed?)" }
    }

    /// Reads up to the first newline; `nil` if the stream ends first.
    private static func firstLine(of handle: FileHandle) -> String? {
        var bytes = Data()
        while !bytes.contains(UInt8(ascii: "\n")) {
            let chunk = handle.availableData
            if chunk.isEmpty { return nil }
            bytes.append(chunk)
        }
        let line = bytes.prefix { $0 != UInt8(ascii: "\n") }
        return String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces)
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
