import Foundation

/// A keep-alive HTTP/1.1 server on 127.0.0.1, run by python3 for the loopback cases.
///
/// It serves `/1k`, `/1m`, `/100m` and `/1g` (100 MiB and 1 GiB, a MiB per write) from memory as `application/octet-stream`, and `/1m.json` (about 1 MB: an array of
/// 13,000 small objects) as `application/json`, answers every `PUT` and `PATCH` with 204, with `TCP_NODELAY`. It
/// exits when its standard input closes, so it never outlives the benchmark process, and ``stop()`` ends it at
/// teardown.
final class LoopbackServer: @unchecked Sendable {
    // @unchecked Sendable: `lock` guards every mutable property.
    static let shared = LoopbackServer()

    private let lock = NSLock()
    private var process: Process?
    private var input: Pipe?
    private var port: Int?

    private static let script = #"""
        import http.server, socket, sys, threading, os
        items = ",".join('{"id":%d,"name":"item %d","active":true,"tags":["a","b"],"score":%d.5}' % (i, i, i % 97)
                         for i in range(13000))
        bodies = {"/1k": b"x" * 1024, "/1m": b"x" * (1024 * 1024), "/1m.json": ("[" + items + "]").encode()}
        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def setup(self):
                super().setup()
                self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            def do_GET(self):
                mebibytes = {"/100m": 100, "/1g": 1024}.get(self.path)
                if mebibytes:  # written a MiB at a time, as a large export streams
                    self.send_response(200)
                    self.send_header("Content-Type", "application/octet-stream")
                    self.send_header("Content-Length", str(mebibytes * len(bodies["/1m"])))
                    self.end_headers()
                    for _ in range(mebibytes):
                        self.wfile.write(bodies["/1m"])
                    return
                body = bodies.get(self.path)
                if body is None:
                    self.send_error(404)
                    return
                self.send_response(200)
                kind = "application/json" if self.path.endswith(".json") else "application/octet-stream"
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            def do_PATCH(self):  # a write: the body is read and dropped
                self.rfile.read(int(self.headers.get("Content-Length", "0")))
                self.send_response(204)
                self.send_header("Content-Length", "0")
                self.end_headers()
            do_PUT = do_PATCH
            def log_message(self, *args):
                pass
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        print(server.server_address[1], flush=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        sys.stdin.read()
        os._exit(0)
        """#

    /// The server's base URL, starting the server on first use; `nil` if python3 could not be started.
    var baseURL: String? {
        lock.lock()
        defer { lock.unlock() }
        if let port { return "http://127.0.0.1:\(port)" }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.script]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        do { try process.run() } catch { return nil }
        var line = Data()
        while let byte = try? output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != 10 {
            line.append(first)
        }
        guard let started = Int(String(decoding: line, as: UTF8.self)) else {
            process.terminate()
            return nil
        }
        self.process = process
        self.input = input
        self.port = started
        return "http://127.0.0.1:\(started)"
    }

    /// Closes the server's standard input, which ends it, and waits for it to exit if `waiting`. Not waiting is for
    /// the main thread: `waitUntilExit()` spins the current run loop, which there runs the app-like driver itself.
    func stop(waiting: Bool = true) {
        lock.lock()
        defer { lock.unlock() }
        try? input?.fileHandleForWriting.close()
        if waiting { process?.waitUntilExit() }
        process = nil
        input = nil
        port = nil
    }
}
