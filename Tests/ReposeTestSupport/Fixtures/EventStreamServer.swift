import Foundation
import Testing

/// A small python event-stream server on loopback, for the stream's tests over real HTTP through `URLSession`.
///
/// Standard library only. It prints its port, then serves until its standard input closes: when this object goes,
/// or this process, however it ends. So a test that crashes leaves nothing running, and no wait outlasts the server.
/// Routes:
/// - `/sse/once?n=N`: `retry: 100`, then event N with id N, then the body ends.
/// - `/sse/resume`: without `Last-Event-ID`, events 1 and 2 and the end; with `Last-Event-ID: 2`, event 3, then the
///   stream stays open (pinging) until the server stops.
/// - `/sse/flaky`: 503 to the first two requests, then one event and the end.
/// - `/sse/auth`: 401 with a `WWW-Authenticate` challenge unless `Authorization: Bearer fresh`, then one event and
///   the end.
/// - `/sse/nocontent`: 204. `/sse/plain`: a 200 of `text/plain`.
/// - `/sse/split`: one event whose CRLF line ends fall across TCP writes: `data:a\r` | `\ndata:b\r` | `\n\r\n`.
/// - `/log`: the requests so far, as JSON lines of `[path, Last-Event-ID or ""]`.
final class EventStreamServer: @unchecked Sendable {
    // Safe: every property is set once in `init`.
    let port: Int
    private let process = Process()
    private let input = Pipe()

    init() async throws {
        let script = FileManager.default.temporaryDirectory
            .appendingPathComponent("repose-sse-\(UUID().uuidString).py")
        try Data(Self.script.utf8).write(to: script)
        defer { try? FileManager.default.removeItem(at: script) }
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-I", "-S", script.path]
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let line = await withCheckedContinuation { continuation in
            LoopbackServer.readLines(
                of: output.fileHandleForReading, first: continuation, then: LoopbackServer.Marks())
        }
        guard let line, let port = Int(line), port > 0 else {
            try? input.fileHandleForWriting.close()
            if process.isRunning { process.terminate() }
            throw LoopbackServer.StartFailure()
        }
        self.port = port
    }

    deinit {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
    }

    var base: String { "http://127.0.0.1:\(port)" }

    static let script = #"""
        import json, sys, threading, time
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        lock = threading.Lock()
        log = []
        counts = {}
        stopping = threading.Event()


        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"  # the body ends when the connection closes

            def log_message(self, *args):
                pass

            def head(self, status, content_type="text/event-stream"):
                self.send_response(status)
                if content_type:
                    self.send_header("Content-Type", content_type)
                self.send_header("Cache-Control", "no-store")
                self.end_headers()

            def write(self, text):
                self.wfile.write(text.encode("utf-8"))
                self.wfile.flush()

            def do_GET(self):
                path, _, query = self.path.partition("?")
                last = self.headers.get("Last-Event-ID", "")
                with lock:
                    log.append([path, last])
                    counts[path] = counts.get(path, 0) + 1
                    count = counts[path]
                if path == "/log":
                    body = "\n".join(json.dumps(entry) for entry in log)
                    self.head(200, "text/plain")
                    self.write(body)
                elif path == "/sse/once":
                    n = query.partition("=")[2] or "1"
                    self.head(200)
                    self.write("retry: 100\nid: %s\ndata: event %s\n\n" % (n, n))
                elif path == "/sse/resume":
                    self.head(200, "text/event-stream; charset=utf-8")
                    if last == "2":
                        self.write("id: 3\ndata: third\n\n")
                        while not stopping.wait(0.2):
                            self.write(": ping\n\n")
                    else:
                        self.write("retry: 100\nid: 1\ndata: first\n\nid: 2\ndata: second\n\n")
                elif path == "/sse/flaky":
                    if count <= 2:
                        self.head(503, "text/plain")
                        self.write("busy")
                    else:
                        self.head(200)
                        self.write("data: finally\n\n")
                elif path == "/sse/auth":
                    if self.headers.get("Authorization") == "Bearer fresh":
                        self.head(200)
                        self.write("data: welcome\n\n")
                    else:
                        self.send_response(401)
                        self.send_header("Content-Type", "text/plain")
                        self.send_header("WWW-Authenticate", 'Bearer realm="repose"')
                        self.end_headers()
                        self.write("who are you?")
                elif path == "/sse/nocontent":
                    self.head(204, None)
                elif path == "/sse/plain":
                    self.head(200, "text/plain")
                    self.write("data: no\n\n")
                elif path == "/sse/split":
                    self.head(200)
                    for piece in ["data:a\r", "\ndata:b\r", "\n\r\n"]:
                        self.write(piece)
                        time.sleep(0.05)
                else:
                    self.head(404, "text/plain")


        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
        print(server.server_address[1], flush=True)


        def watch_input():
            sys.stdin.read()
            stopping.set()


        threading.Thread(target=watch_input, daemon=True).start()
        stopping.wait()
        server.shutdown()
        """#
}
