extension LoopbackServer {
    /// The server, written to a temporary file at each start. Standard library only; see the type's
    /// documentation for the routes.
    static let script = #"""
        import json, os, socket, sys, threading, time
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
        from urllib.parse import urlsplit, parse_qs

        MAX_LIFETIME = int(sys.argv[1]) if len(sys.argv) > 1 else 120
        MAX_DELAY = 10.0
        MAX_BYTES = 64 * 1024 * 1024


        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def setup(self):
                super().setup()
                self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

            def log_message(self, *args):
                pass

            def read_body(self):
                if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
                    body = b""
                    while True:
                        size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                        if size == 0:
                            while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                                pass
                            return body
                        body += self.rfile.read(size)
                        self.rfile.readline()
                length = int(self.headers.get("Content-Length") or 0)
                return self.rfile.read(length) if length > 0 else b""

            def reply(self, status, body=b"", content_type="text/plain; charset=utf-8", headers=()):
                has_body = status not in (204, 304)
                self.send_response(status)
                for name, value in headers:
                    self.send_header(name, value)
                if has_body:
                    self.send_header("Content-Type", content_type)
                    self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if has_body and self.command != "HEAD":
                    self.wfile.write(body)

            def reply_json(self, status, value, headers=()):
                self.reply(status, json.dumps(value).encode(), "application/json", headers)

            def handle_any(self):
                url = urlsplit(self.path)
                query = {key: values[-1] for key, values in parse_qs(url.query).items()}
                parts = [part for part in url.path.split("/") if part]
                body = self.read_body()
                route = parts[0] if parts else ""
                if route == "echo":
                    self.reply_json(200, {
                        "method": self.command, "path": url.path, "query": url.query,
                        "headers": {name.lower(): value for name, value in self.headers.items()},
                        "body": body.decode("utf-8", "replace"), "bodyLength": len(body)})
                elif route == "status" and len(parts) == 2 and parts[1].isdigit() and 200 <= int(parts[1]) <= 599:
                    status = int(parts[1])
                    if "auth" in query:
                        self.reply(status, b"credentials, please", headers=[("WWW-Authenticate", query["auth"])])
                    elif query.get("body") == "json":
                        self.reply_json(status, {"status": status, "message": "status %d" % status})
                    else:
                        self.reply(status, ("status %d" % status).encode())
                elif route == "etag" and len(parts) == 2:
                    tag = '"%s"' % parts[1]
                    if self.headers.get("If-None-Match") == tag:
                        self.reply(304, headers=[("ETag", tag)])
                    else:
                        self.reply(200, ("version " + parts[1]).encode(), headers=[("ETag", tag)])
                elif route == "slow":
                    delay = min(float(query.get("ms", "1000")) / 1000, MAX_DELAY)
                    if query.get("first") == "1":
                        self.send_response(200)
                        self.send_header("Content-Type", "text/plain")
                        self.send_header("Content-Length", "10")
                        self.end_headers()
                        self.wfile.write(b"first")
                        self.wfile.flush()
                        time.sleep(delay)
                        self.wfile.write(b"-last")
                    else:
                        time.sleep(delay)
                        self.reply(200, b"slow done")
                elif route == "drop":
                    announced = int(query.get("announce", "1000"))
                    sent = min(int(query.get("send", "10")), announced - 1)
                    self.send_response(200)
                    self.send_header("Content-Type", "application/octet-stream")
                    self.send_header("Content-Length", str(announced))
                    self.end_headers()
                    self.wfile.write(b"x" * sent)
                    self.wfile.flush()
                    self.connection.shutdown(socket.SHUT_RDWR)
                    self.close_connection = True
                elif route == "bytes" and len(parts) == 2 and parts[1].isdigit():
                    count = min(int(parts[1]), MAX_BYTES)
                    self.send_response(200)
                    self.send_header("Content-Type", "application/octet-stream")
                    self.send_header("Content-Length", str(count))
                    self.end_headers()
                    chunk = b"r" * 65536
                    while count > 0:
                        self.wfile.write(chunk[:count])
                        count -= len(chunk)
                elif route == "chunked" and len(parts) == 2 and parts[1].isdigit():
                    count = min(int(parts[1]), MAX_BYTES)
                    self.send_response(200)
                    self.send_header("Content-Type", "application/octet-stream")
                    self.send_header("Transfer-Encoding", "chunked")
                    self.end_headers()
                    while count > 0:
                        part = b"c" * min(count, 65536)
                        self.wfile.write(b"%x\r\n" % len(part) + part + b"\r\n")
                        count -= len(part)
                    self.wfile.write(b"0\r\n\r\n")
                elif route == "discard":
                    self.reply_json(200, {"received": len(body)})
                else:
                    self.reply(404, b"no such route")

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = handle_any


        class Server(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request, client_address):
                pass


        def exit_when_parent_goes():
            sys.stdin.read()
            os._exit(0)


        server = Server(("127.0.0.1", 0), Handler)
        threading.Thread(target=exit_when_parent_goes, daemon=True).start()
        threading.Timer(MAX_LIFETIME, lambda: os._exit(0)).start()
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#
}
