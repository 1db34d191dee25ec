// A child process for the multipart memory test (UploadMemoryTests): it uploads one file as a multipart request
// through Repose and URLSession, and prints how far its resident memory rose above where it stood just before.
//
// Usage: repose-upload-probe <upload URL> <file>
//
// Output: `growth <bytes>`, then `received <bytes>` (the server's count) or `failed <message>`. Linux only: it reads and resets the peak in /proc.
//
// Usage: repose-upload-probe gate <upload URL> <second URL>
// For URLSessionProviderStartTests: uploads a body whose first read blocks (holding the session's network queue), then
// starts a GET of the second URL; prints `held true` if that start returned while the read still blocked, releases
// the body, then prints `upload <status>` and `second <status>`, or `failed <message>`. In a process of its own
// because the queue it holds is every URLSession's of its process on Linux, which would stall the other tests.
import Foundation
import Repose

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A line of /proc/self/status, in bytes.
func statusBytes(_ field: String) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") })
    else { return nil }
    return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }.map { $0 * 1024 }
}

func finish(_ line: String, code: Int32) -> Never {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
    exit(code)
}

/// The status codes of the gated upload and of the second request, from the session's queues.
final class Statuses: @unchecked Sendable {
    // Safe: only touched under `lock`.
    private let lock = NSLock()
    private var lines: [String] = []

    func record(_ line: String) {
        lock.withLock { lines.append(line) }
    }

    var all: [String] { lock.withLock { lines.sorted() } }
}

/// Takes one response for the probe: its status once it ends, or its failure.
final class StatusSink: ResponseSink, @unchecked Sendable {
    // Safe: the provider calls one method at a time; `status` is only read in `finish`, after the others.
    private let name: String
    private let statuses: Statuses
    private let done: DispatchGroup
    private var status = 0

    init(_ name: String, into statuses: Statuses, done: DispatchGroup) {
        (self.name, self.statuses, self.done) = (name, statuses, done)
        done.enter()
    }

    func receive(_ response: NetworkResponse) -> Bool {
        status = response.statusCode
        return true
    }

    func receive(_ bytes: Data) -> Bool { true }

    func progress(_ sample: TransferProgress) {}

    func finish(_ error: (any Error)?, connection: ConnectionMetrics?, isFromCache: Bool) {
        statuses.record(error.map { "failed \(name): \($0)" } ?? "\(name) \(status)")
        done.leave()
    }
}

/// Starts an upload whose body holds the session's queue, then a second request; see the usage above.
func gate(_ upload: URL, then second: URL) -> Never {
    let provider = URLSessionProvider()
    let body = GatedBodyStream()
    let statuses = Statuses()
    let done = DispatchGroup()
    var request = URLRequest(url: upload)
    request.httpMethod = "POST"
    request.httpBodyStream = body
    _ = provider.startTransfer(request, into: StatusSink("upload", into: statuses, done: done))
    // Bounded, like the waits below, so that a probe whose parent is gone ends by itself.
    guard body.waitUntilReading(seconds: 120) else { finish("failed: the session never read the body", code: 1) }
    _ = provider.startTransfer(URLRequest(url: second), into: StatusSink("second", into: statuses, done: done))
    // swift-corelibs-foundation makes a task with a synchronous call onto the held queue: had `startTransfer` made it
    // in place, it would have returned only after the release below, which it would have waited for for ever.
    let held = body.isHolding
    body.release()
    guard done.wait(timeout: .now() + .seconds(120)) == .success else { finish("failed: no responses", code: 1) }
    finish((["held \(held)"] + statuses.all).joined(separator: "\n"), code: 0)
}

@MainActor
func run() {
    let arguments = CommandLine.arguments
    if arguments.count == 4, arguments[1] == "gate", let upload = URL(string: arguments[2]),
        let second = URL(string: arguments[3])
    {
        gate(upload, then: second)
    }
    guard arguments.count == 3, let url = URL(string: arguments[1]) else {
        finish("usage: repose-upload-probe <upload URL> <file>", code: 2)
    }
    let service = Service(baseURL: url.deletingLastPathComponent().absoluteString)
    let target = service.resource(absoluteURL: url)
    // A small upload first, so the session, its connection and the code paths are in place before measuring.
    target.request(.post, multipart: [.field("warm", "up")]).onCompletion { _ in
        // Writing 5 to clear_refs resets the peak (VmHWM) to the current resident size.
        try? Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/self/clear_refs"))
        guard let before = statusBytes("VmRSS") else { finish("no /proc/self/status", code: 3) }
        let file = URL(fileURLWithPath: arguments[2])
        target.request(.post, multipart: [.field("name", "big"), .file("blob", at: file)]).onCompletion { info in
            let peak = statusBytes("VmHWM") ?? Int.max
            FileHandle.standardOutput.write(Data("growth \(peak - before)\n".utf8))
            if let error = info.response.error { finish("failed \(error.userMessage)", code: 1) }
            let received = (info.response.entity?.content as? [String: Any])?["received"] as? Int ?? 0
            finish("received \(received)", code: 0)
        }
    }
}

MainActor.assumeIsolated { run() }
// Bounded: alone the upload takes seconds, but under AddressSanitizer beside the whole suite it took over 60.
RunLoop.main.run(until: Date(timeIntervalSinceNow: 180))
finish("timed out", code: 4)
