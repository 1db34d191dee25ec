extension LoopbackServer {
    /// The server, written to a temporary file at each start. Standard library only; see the type's
    /// documentation for the routes.
    static let script = #"""
        import json, os, re, select, socket, struct, sys, threading, zlib
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
        from urllib.parse import urlsplit, parse_qs

        HOST = sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1"
        MAX_HOLD = None  # a hold ends when the test releases it, when the client goes (/hang) or when the server stops
        MAX_BYTES = 64 * 1024 * 1024
        MAX_INFLATED = 1024 * 1024 * 1024
        MAX_HEADER = 16 * 1024 * 1024
        output_lock = threading.Lock()
        gzip_bodies = {}
        counters = {"cacheable": 0}
        connections = {"open": 0, "peak": 0}  # the TCP connections of clients, open now and at most at once
        named_counts = {}
        ranged_versions = {}  # /ranged: the version of each named body, which its ETag names
        RANGED_PATTERN = bytes((i * 31 + 7) % 251 for i in range(251))
        store = {"data": {}, "versions": {}, "log": [], "offline": False, "writes": 0, "holds": {}}


        def bump(name):
            """Counts one more request for `name`, marks `count NAME N` (a test can wait for the Nth) and returns N."""
            with output_lock:
                named_counts[name] = named_counts.get(name, 0) + 1
                count = named_counts[name]
            mark("count %s %d" % (name, count))
            return count


        def mark(name):
            """Tells the test process, on standard output, that the server reached a point."""
            with output_lock:
                print("mark " + name, flush=True)


        def merge_patch(target, patch):
            """A JSON merge patch (RFC 7386)."""
            if not isinstance(patch, dict):
                return patch
            result = dict(target) if isinstance(target, dict) else {}
            for key, value in patch.items():
                if value is None:
                    result.pop(key, None)
                else:
                    result[key] = merge_patch(result.get(key), value)
            return result


        def hold_event(name):
            with output_lock:
                return store["holds"].setdefault(name, threading.Event())


        def gzip_of(size):
            """A gzip stream of `size` bytes of one letter: a small body that inflates to `size`."""
            if size not in gzip_bodies:
                compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
                chunk = b"z" * (1024 * 1024)
                parts, left = [], size
                while left > 0:
                    parts.append(compressor.compress(chunk[:left]))
                    left -= len(chunk)
                parts.append(compressor.flush())
                gzip_bodies[size] = b"".join(parts)
            return gzip_bodies[size]


        def multipart_report(headers, body):
            """Parses a multipart/form-data body strictly (CRLF only, RFC 7578) into a report of its parts."""
            found = re.match(r'multipart/form-data; boundary=([0-9A-Za-z\'()+_,./:=?-]{1,70})$',
                             headers.get("Content-Type", ""))
            if not found:
                return 400, {"error": "bad content type"}
            delimiter = b"--" + found.group(1).encode()
            closing = b"\r\n" + delimiter + b"--\r\n"
            if not body.startswith(delimiter) or not body.endswith(closing):
                return 400, {"error": "body does not open and close with the boundary"}
            chunks = body[:-len(closing)].split(b"\r\n" + delimiter)
            chunks[0] = chunks[0][len(delimiter):]
            parts = []
            for chunk in chunks:
                if not chunk.startswith(b"\r\n") or b"\r\n\r\n" not in chunk:
                    return 400, {"error": "a part lacks its CRLF framing"}
                head, content = chunk[2:].split(b"\r\n\r\n", 1)
                part = {"length": len(content), "crc32": zlib.crc32(content)}
                if len(content) <= 256:
                    part["text"] = content.decode("utf-8", "replace")
                for line in head.split(b"\r\n"):
                    if b"\n" in line or b"\r" in line:
                        return 400, {"error": "a bare CR or LF in a header"}
                    name, _, value = line.decode("utf-8").partition(": ")
                    if name.lower() == "content-type":
                        part["type"] = value
                    elif name.lower() == "content-disposition":
                        for key, quoted in re.findall(r'; (name|filename)="([^"]*)"', value):
                            part[key] = quoted
                parts.append(part)
            return 200, {"parts": parts, "bodyLength": len(body),
                         "contentLength": headers.get("Content-Length"),
                         "transferEncoding": headers.get("Transfer-Encoding")}


        RAW_ANSWERS = {
            "status": b"HTTP/1.1 abc OK\r\nContent-Length: 2\r\n\r\nhi",
            "version": b"HTTP/9.9 200 OK\r\nContent-Length: 2\r\n\r\nhi",
            "garbage": b"hello there\r\n\r\n",
        }


        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def setup(self):
                super().setup()
                self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                with output_lock:
                    connections["open"] += 1
                    connections["peak"] = max(connections["peak"], connections["open"])

            def finish(self):
                with output_lock:
                    connections["open"] -= 1
                super().finish()

            def log_message(self, *args):
                pass

            def read_body_chunks(self):
                """The request body, chunk by chunk, as it arrives: chunked or with a Content-Length."""
                if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
                    while True:
                        size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                        if size == 0:
                            while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                                pass
                            return
                        yield self.rfile.read(size)
                        self.rfile.readline()
                left = int(self.headers.get("Content-Length") or 0)
                while left > 0:
                    chunk = self.rfile.read(min(left, 1 << 20))
                    if not chunk:
                        return
                    left -= len(chunk)
                    yield chunk

            def read_body(self):
                if self.path.split("?")[0].rstrip("/") == "/sink":
                    return b""  # read by the route itself, without keeping it
                return b"".join(self.read_body_chunks())

            def sink(self):
                """Reads the body without keeping it: its length, and its first and last 512 bytes as text."""
                count, head, tail = 0, b"", b""
                for chunk in self.read_body_chunks():
                    count += len(chunk)
                    if len(head) < 512:
                        head += chunk[:512 - len(head)]
                    tail = (tail + chunk)[-512:]
                self.reply_json(200, {
                    "received": count, "head": head.decode("utf-8", "replace"), "tail": tail.decode("utf-8", "replace"),
                    "contentType": self.headers.get("Content-Type", ""),
                    "chunked": "chunked" in self.headers.get("Transfer-Encoding", "").lower()})

            def store_route(self, parts, query, body):
                """A small JSON store with a log of every request it saw; see the route table."""
                path = "/" + "/".join(parts)
                if parts[0] == "store-release":
                    hold_event(parts[1] if len(parts) > 1 else "").set()
                    return self.reply_json(200, {"released": parts[1:]})
                with output_lock:
                    if parts[0] == "store-offline":
                        store["offline"] = query.get("on", "1") == "1"
                        return self.reply_json(200, {"offline": store["offline"]})
                    if parts[0] == "store-log":
                        return self.reply_json(200, store["log"])
                    offline = store["offline"]
                if offline:
                    self.connection.shutdown(socket.SHUT_RDWR)  # no answer at all: a transport error
                    self.close_connection = True
                    return
                with output_lock:
                    store["log"].append({
                        "method": self.command, "path": path, "body": body.decode("utf-8", "replace"),
                        "key": self.headers.get("Idempotency-Key"), "authorization": self.headers.get("Authorization"),
                        "contentType": self.headers.get("Content-Type")})
                if "hold" in query:
                    mark("held " + query["hold"])
                    hold_event(query["hold"]).wait(MAX_HOLD)
                forced = query.get("status", "")
                if forced.isdigit():
                    return self.reply_json(int(forced), {"status": int(forced)})
                with output_lock:
                    data = store["data"]
                    if self.command == "GET":
                        if path in data:
                            value, tag = data[path], '"v%d"' % store["versions"].get(path, 0)
                        else:
                            prefix = path.rstrip("/") + "/"
                            value = [data[key] for key in sorted(data)
                                     if key.startswith(prefix) and "/" not in key[len(prefix):]]
                            tag = '"c%d"' % store["writes"]
                        if self.headers.get("If-None-Match") == tag:
                            return self.reply(304, headers=[("ETag", tag)])
                        return self.reply_json(200, value, [("ETag", tag)])
                    try:
                        sent = json.loads(body or b"null")
                    except ValueError:
                        return self.reply_json(400, {"error": "not JSON"})
                    store["writes"] += 1
                    if self.command == "DELETE":
                        data.pop(path, None)
                    elif self.command == "POST":
                        path = path.rstrip("/") + "/" + str(store["writes"])
                        data[path] = dict(sent, id=store["writes"]) if isinstance(sent, dict) else sent
                    elif self.command == "PUT":
                        data[path] = sent
                    else:
                        data[path] = merge_patch(data.get(path), sent)
                    store["versions"][path] = store["versions"].get(path, 0) + 1
                    value = data.get(path, {"deleted": path})
                    self.reply_json(200, value, [("ETag", '"v%d"' % store["versions"][path])])

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

            def reset(self):
                """Ends the connection with a TCP reset instead of an orderly close."""
                self.wfile.flush()
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                self.close_connection = True
                self.rfile.close()
                self.wfile.close()
                self.connection.close()

            def hold(self):
                """Waits until the client closes the connection."""
                readable, _, _ = select.select([self.connection], [], [], MAX_HOLD)
                self.close_connection = True

            def drip(self, query):
                """N bytes in K writes; with Content-Length unless length=0 (then ended by closing); with hold=NAME, the
                second half waits for /store-release/NAME. No pause between writes: what arrives apart is what the test
                holds apart."""
                count = min(int(query.get("bytes", "20000")), MAX_BYTES)
                pieces = max(1, min(int(query.get("chunks", "20")), 1000))
                self.send_response(200)
                self.send_header("Content-Type", "application/octet-stream")
                if query.get("length") == "0":
                    self.send_header("Connection", "close")
                    self.close_connection = True
                else:
                    self.send_header("Content-Length", str(count))
                self.end_headers()
                self.wfile.flush()
                sent = 0
                for index in range(pieces):
                    if index == pieces // 2 and "hold" in query:
                        mark("held " + query["hold"])
                        bump("held " + query["hold"])  # marks `count held NAME N` for the Nth request held
                        hold_event(query["hold"]).wait(MAX_HOLD)
                    size = count * (index + 1) // pieces - sent
                    self.wfile.write(b"d" * size)
                    self.wfile.flush()
                    sent += size

            def lines(self, query):
                """COUNT lines of NDJSON, {"n": I} (with pad=N, a "pad" of N letters too), ended by closing; each line in
                two writes with split=1; with hold=NAME, the lines after the first wait for /store-release/NAME; with
                gone=NAME, marks `gone NAME` once a write finds the client gone; with cut=1, announces a longer body
                than it sends, so that its end is a lost connection."""
                count = min(int(query.get("count", "3")), 100000000)
                pad = "x" * min(int(query.get("pad", "0")), MAX_BYTES)
                self.send_response(200)
                self.send_header("Content-Type", "application/x-ndjson")
                if query.get("cut") == "1":
                    self.send_header("Content-Length", str(MAX_BYTES))  # more than comes: the close is a failure
                else:
                    self.send_header("Connection", "close")
                self.close_connection = True
                self.end_headers()
                self.wfile.flush()
                try:
                    for index in range(count):
                        if index == 1 and "hold" in query:
                            mark("held " + query["hold"])
                            hold_event(query["hold"]).wait(MAX_HOLD)
                        line = (json.dumps({"n": index, "pad": pad} if pad else {"n": index}) + "\n").encode()
                        if query.get("split") == "1":
                            self.wfile.write(line[:len(line) // 2])
                            self.wfile.flush()
                            line = line[len(line) // 2:]
                        self.wfile.write(line)
                        self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError):
                    if "gone" in query:
                        mark("gone " + query["gone"])
                    return
                if query.get("cut") == "1":
                    self.connection.shutdown(socket.SHUT_RDWR)

            def reply_json(self, status, value, headers=()):
                self.reply(status, json.dumps(value).encode(), "application/json", headers)

            feed_state = {"version": 0, "requests": 0, "notModified": 0, "fail": set()}

            def feed(self, parts, query):
                """A paged feed of items {"id", "name"}, newest (highest id) first; see the route table."""
                state = Handler.feed_state
                action = parts[1] if len(parts) > 1 else ""
                with output_lock:
                    if action == "bump":
                        state["version"] += 1
                        return self.reply_json(200, {"version": state["version"]})
                    if action == "fail":
                        state["fail"].add(query.get("page", query.get("cursor", "1")))
                        return self.reply_json(200, {"failing": sorted(state["fail"])})
                    if action == "stats":
                        return self.reply_json(200, {"requests": state["requests"], "notModified": state["notModified"]})
                    state["requests"] += 1
                    version = state["version"]
                    style = query.get("style", "link")
                    size = max(1, int(query.get("size", "3")) if query.get("size", "3").isdigit() else 3)
                    total = (int(query["total"]) if query.get("total", "").isdigit() else 10) + version
                    ids = list(range(total, 0, -1))
                    key = query.get("cursor", "") if style == "cursor" else query.get("page", "1")
                    if key in state["fail"]:
                        state["fail"].discard(key)
                        return self.reply(500, b"feed page failed")
                    headers = []
                    if style == "cursor":
                        after = int(key) if key.isdigit() else total + 1
                        rest = [i for i in ids if i < after]
                        chunk = rest[:size]
                        body = {"items": [{"id": i, "name": "item %d" % i} for i in chunk],
                                "next": str(chunk[-1]) if len(rest) > size else None}
                    else:
                        page = int(key) if key.isdigit() and int(key) > 0 else 1
                        chunk = ids[(page - 1) * size:page * size]
                        body = [{"id": i, "name": "item %d" % i} for i in chunk]
                        if style == "link" and page * size < total:
                            others = ["%s=%s" % item for item in sorted(query.items()) if item[0] != "page"]
                            following = "&".join(["page=%d" % (page + 1)] + others)
                            headers.append(("Link", '</feed?%s>; rel="first", </feed?%s> ; rel = next'
                                            % ("&".join(others), following)))
                    tag = '"v%d-%s"' % (version, key)
                    headers.append(("ETag", tag))
                    if self.headers.get("If-None-Match") == tag:
                        state["notModified"] += 1
                        return self.reply(304, headers=headers)
                    self.reply_json(200, body, headers)

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
                    if query.get("body") == "none":
                        self.send_response(status)
                        self.send_header("Content-Length", "0")
                        self.end_headers()
                    elif "auth" in query:
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
                elif route == "feed":
                    self.feed(parts, query)
                elif route == "drop":
                    announced = int(query.get("announce", "1000"))
                    sent = min(int(query.get("send", "10")), announced - 1)
                    self.send_response(200)
                    is_events = parts[1:] == ["events"]
                    self.send_header("Content-Type", "text/event-stream" if is_events else "application/octet-stream")
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
                    while count > 0 and self.command != "HEAD":
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
                elif route == "cookie":
                    cookie = "session=%s; Path=/" % query.get("value", "1")
                    self.reply(200, b"cookie set", headers=[("Set-Cookie", cookie)])
                elif route == "cacheable":
                    with output_lock:
                        counters["cacheable"] += 1
                        count = counters["cacheable"]
                    self.reply(200, ("count %d" % count).encode(), headers=[("Cache-Control", "public, max-age=3600")])
                elif route == "gzip":
                    body = gzip_of(min(int(query.get("size", "1000")), MAX_INFLATED))
                    self.reply(200, body, "application/octet-stream", headers=[("Content-Encoding", "gzip")])
                elif route == "redirect":
                    target = self.path if parts[1:] == ["loop"] else query.get("to", "/echo")
                    self.send_response(int(query.get("status", "302")))
                    self.send_header("Location", target)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                elif route == "header":
                    size = min(int(query.get("bytes", "1000")), MAX_HEADER)
                    self.reply(200, b"large header", headers=[("X-Large", "h" * size)])
                elif route == "connections":
                    with output_lock:
                        counts = dict(connections)
                    self.reply_json(200, counts)
                elif route == "reset":
                    self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/pl")
                    if query.get("at") == "body":
                        self.wfile.write(b"ain\r\nContent-Length: 1000\r\n\r\n" + b"x" * 100)
                    self.reset()
                elif route == "hang":
                    stage = query.get("at", "request")
                    if stage in ("headers", "body"):
                        self.send_response(200)
                        self.send_header("Content-Type", "text/event-stream" if query.get("type") == "events" else "text/plain")
                        self.send_header("Content-Length", "10")
                        self.end_headers()
                        if stage == "body":
                            self.wfile.write(b"first")
                        self.wfile.flush()
                    mark("hang " + stage)
                    self.hold()
                elif route == "flaky" and len(parts) == 2:
                    attempt = bump(parts[1])
                    if attempt <= int(query.get("fails", "1")):
                        headers = [("Retry-After", query["after"])] if "after" in query else []
                        self.reply(int(query.get("status", "503")), ("attempt %d" % attempt).encode(), headers=headers)
                    else:
                        self.reply(200, ("attempt %d" % attempt).encode())
                elif route == "headers" and len(parts) == 2:
                    bump(parts[1])
                    given = [(name, value) for name, value in query.items() if name not in ("status", "Date")]
                    if "Date" in query:  # replaces the Date header the server sends anyway, rather than adding one
                        self.date_time_string = lambda timestamp=None: query["Date"]
                    etag = query.get("ETag")
                    modified = query.get("Last-Modified")
                    if (etag and self.headers.get("If-None-Match") == etag) or (
                            modified and not etag and self.headers.get("If-Modified-Since") == modified):
                        self.reply(304, headers=given)
                    else:
                        self.reply(int(query.get("status", "200")), b"headers " + parts[1].encode(), headers=given)
                elif route == "count" and len(parts) == 2:
                    with output_lock:
                        total = named_counts.get(parts[1], 0)
                    self.reply(200, str(total).encode())
                elif route == "auth" and parts[1:2] == ["refresh"]:
                    bump("refresh")
                    if "hold" in query:
                        mark("held " + query["hold"])
                        hold_event(query["hold"]).wait(MAX_HOLD)
                    self.reply(200, query.get("token", "fresh-token").encode())
                elif route == "auth" and len(parts) == 3 and parts[1] == "private":
                    if self.headers.get("Authorization") == "Bearer " + query.get("token", "fresh-token"):
                        self.reply(200, ("private " + parts[2]).encode())
                    else:
                        bump("unauthorized")
                        self.reply(401, b"credentials, please", headers=[("WWW-Authenticate", "Bearer")])
                elif route in ("store", "store-log", "store-offline", "store-release"):
                    self.store_route(parts, query, body)
                elif route == "sink":
                    self.sink()
                elif route == "multipart":
                    self.reply_json(*multipart_report(self.headers, body))
                elif route == "discard":
                    self.reply_json(200, {"received": len(body)})
                # Routes for HTTP as servers speak it (rules W1-W9): answers no correct server gives, slow bodies.
                elif route == "raw":
                    self.wfile.write(RAW_ANSWERS.get(query.get("kind", ""), b""))
                    self.wfile.flush()
                    self.connection.shutdown(socket.SHUT_RDWR)
                    self.close_connection = True
                elif route == "drip":
                    self.drip(query)
                elif route == "lines":
                    self.lines(query)
                # --- Downloads to a file (rule X2): large bodies made on the fly, never held whole. ---
                elif route == "large" and len(parts) == 2 and parts[1].isdigit():
                    count = min(int(parts[1]), 1 << 30)
                    cut = int(query.get("cut", str(count)))
                    self.send_response(200)
                    self.send_header("Content-Type", "application/octet-stream")
                    self.send_header("Content-Length", str(count))
                    self.end_headers()
                    chunk = b"L" * (1 << 20)
                    left = min(count, cut)
                    while left > 0 and self.command != "HEAD":
                        self.wfile.write(chunk[:left])
                        left -= len(chunk)
                    if cut < count:
                        self.wfile.flush()
                        self.connection.shutdown(socket.SHUT_RDWR)
                        self.close_connection = True
                # A body of N bytes, each byte's value from its position, with an ETag and byte ranges (rule Q3): a
                # `Range: bytes=S-` whose `If-Range` matches is answered 206 from S; `cut=M` closes the connection
                # after byte M of the first request for the name; `ranges=0` ignores ranges; /ranged-change/NAME
                # makes a new version, with a new ETag. Marks `ranged NAME from S` for each request.
                elif route == "ranged" and len(parts) == 2 and parts[1].isdigit():
                    count = min(int(parts[1]), 1 << 30)
                    name = query.get("name", "")
                    with output_lock:
                        version = ranged_versions.get(name, 1)
                    attempt = bump("ranged " + name)
                    etag = '"r%d"' % version
                    honours = query.get("ranges", "1") == "1"
                    wanted = self.headers.get("Range", "")
                    condition = self.headers.get("If-Range")
                    start = 0
                    if honours and wanted.startswith("bytes=") and wanted.endswith("-") and wanted[6:-1].isdigit() \
                            and condition in (None, etag):
                        start = min(int(wanted[6:-1]), count)
                    mark("ranged %s from %d" % (name, start))
                    cut = min(count, int(query.get("cut", str(count)))) if attempt == 1 else count
                    self.send_response(206 if start > 0 else 200)
                    self.send_header("Content-Type", "application/octet-stream")
                    self.send_header("ETag", etag)
                    if honours:
                        self.send_header("Accept-Ranges", "bytes")
                    if start > 0:
                        claimed = 0 if query.get("wrongstart") == "1" else start  # a server that lies about the range
                        self.send_header("Content-Range", "bytes %d-%d/%d" % (claimed, count - 1, count))
                    self.send_header("Content-Length", str(count - start))
                    self.end_headers()
                    position = start
                    while position < cut:
                        end = min(cut, position + (1 << 16))
                        offset = position % 251
                        self.wfile.write((RANGED_PATTERN * ((end - position) // 251 + 2))[offset:offset + end - position])
                        position = end
                    if cut < count:
                        self.wfile.flush()
                        self.connection.shutdown(socket.SHUT_RDWR)
                        self.close_connection = True
                elif route == "ranged-change" and len(parts) == 2:
                    with output_lock:
                        ranged_versions[parts[1]] = ranged_versions.get(parts[1], 1) + 1
                    self.reply(200, b"changed")
                # A body sent only as fast as the client reads it: "held NAME" once a piece could not be written for
                # a second and a half, which happens only when the client has stopped reading (rule X2).
                elif route == "pace" and len(parts) == 2 and parts[1].isdigit():
                    count = min(int(parts[1]), 1 << 30)
                    self.send_response(200)
                    self.send_header("Content-Type", "application/octet-stream")
                    self.send_header("Content-Length", str(count))
                    self.end_headers()
                    self.wfile.flush()
                    chunk = b"P" * (1 << 16)
                    left, held = count, False
                    while left > 0:
                        if not held and not select.select([], [self.connection], [], 1.5)[1]:
                            held = True
                            mark("held " + query.get("name", ""))
                        self.wfile.write(chunk[:left])
                        left -= len(chunk)
                else:
                    self.reply(404, b"no such route")

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = handle_any


        class Server(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request, client_address):
                pass


        def exit_when_parent_goes():
            """The server's only lifetime: the test process's. Its end, however it comes, closes standard input."""
            sys.stdin.read()
            os._exit(0)


        server = Server((HOST, 0), Handler)
        threading.Thread(target=exit_when_parent_goes, daemon=True).start()
        with output_lock:
            print(server.server_address[1], flush=True)
        server.serve_forever()
        """#
}
