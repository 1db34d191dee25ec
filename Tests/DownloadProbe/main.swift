// A child process for the download tests.
//
// Usage: repose-download-probe <download URL> <destination file>
// For DownloadMemoryTests: downloads the URL to the file through Repose and URLSession, and prints how far its
// resident memory rose above where it stood just before: `growth <bytes>`, then `saved <bytes>` (the destination's
// size) or `failed <message>`. Linux only: it reads and resets the peak in /proc.
//
// Usage: repose-download-probe hold <URL> <release file>
// For DownloadBackpressureTests: streams the URL's body through URLSessionProvider and holds the first piece, as a
// writer stuck on a slow disk would, until the release file exists (120 s at most); then takes the rest and prints
// `received <bytes>` or `failed <message>`. In a process of its own because holding a piece holds every URLSession
// of its process on Linux (they share one queue), which would stall the other tests.
//
// Usage: repose-download-probe start <URL> <destination file>
// For DownloadLeftoverTests: starts downloading and prints `started` once the download's temporary file exists, then
// waits (180 s at most) for the test to kill it.
//
// Usage: repose-download-probe fsize <bytes> <URL> <destination file>
// For DownloadLeftoverTests: downloads with the process's file size limit (RLIMIT_FSIZE) set to <bytes>, as a full
// disk would stop the writes, and prints `received <bytes>` (what came from the network, by the request's metrics)
// and `failed <message>` or `saved`. In a process of its own because the limit is the whole process's.
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

func exitWith(_ line: String, code: Int32) -> Never {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
    exit(code)
}

/// Streams `url` and holds its first piece until `release` exists.
func hold(_ url: URL, until release: URL) {
    _ = URLSessionProvider().startTransfer(URLRequest(url: url), into: HoldingSink(release: release))
}

/// Takes a body and holds its first piece, as a writer stuck on a slow disk would. Safe (`@unchecked Sendable`):
/// `received` is only touched by the provider's calls, which come one at a time.
final class HoldingSink: ResponseSink, @unchecked Sendable {
    let release: URL
    private var received = 0

    init(release: URL) {
        self.release = release
    }

    func receive(_ response: NetworkResponse) -> Bool { true }

    func receive(_ piece: Data) -> Bool {
        received += piece.count
        guard received == piece.count else { return true }
        for _ in 0..<6_000 where !FileManager.default.fileExists(atPath: release.path) {  // 120 s at most
            usleep(20_000)
        }
        return true
    }

    func progress(_ sample: TransferProgress) {}

    func finish(_ error: (any Error)?, connection: ConnectionMetrics?, isFromCache: Bool) {
        if let error { exitWith("failed \(error)", code: 1) }
        exitWith("received \(received)", code: 0)
    }
}

/// Starts downloading `url` to `destination` and says so once the temporary file exists.
@MainActor
func start(_ url: URL, to destination: URL) {
    let service = Service(baseURL: url.deletingLastPathComponent().absoluteString)
    service.resource(absoluteURL: url).download(to: destination)
    Kept.service = service  // until the process is killed
    FileHandle.standardOutput.write(Data("started\n".utf8))
}

/// What the probe keeps alive while the run loop runs.
@MainActor
enum Kept {
    static var service: Service?
}

/// Downloads `url` to `destination` with writes limited to `limit` bytes per file.
@MainActor
func downloadWithFileSizeLimit(_ limit: Int, _ url: URL, to destination: URL) {
    var bound = rlimit(rlim_cur: rlim_t(limit), rlim_max: rlim_t(limit))
    guard setrlimit(Int32(RLIMIT_FSIZE.rawValue), &bound) == 0 else { exitWith("no setrlimit", code: 3) }
    signal(SIGXFSZ, SIG_IGN)  // a write past the limit fails with EFBIG instead of ending the process
    let service = Service(baseURL: url.deletingLastPathComponent().absoluteString)
    service.monitorRequests(owner: service) { metrics in
        FileHandle.standardOutput.write(Data("received \(metrics.bytesReceived)\n".utf8))
    }
    service.resource(absoluteURL: url).download(to: destination).onCompletion { info in
        if let error = info.response.error { exitWith("failed \(error.userMessage)", code: 1) }
        exitWith("saved", code: 0)
    }
    Kept.service = service
}

@MainActor
func run() {
    let arguments = CommandLine.arguments
    if arguments.count == 4, arguments[1] == "hold", let url = URL(string: arguments[2]) {
        return hold(url, until: URL(fileURLWithPath: arguments[3]))
    }
    if arguments.count == 4, arguments[1] == "start", let url = URL(string: arguments[2]) {
        return start(url, to: URL(fileURLWithPath: arguments[3]))
    }
    if arguments.count == 5, arguments[1] == "fsize", let limit = Int(arguments[2]), let url = URL(string: arguments[3])
    {
        return downloadWithFileSizeLimit(limit, url, to: URL(fileURLWithPath: arguments[4]))
    }
    guard arguments.count == 3, let url = URL(string: arguments[1]) else {
        exitWith("usage: repose-download-probe <download URL> <destination file>", code: 2)
    }
    let destination = URL(fileURLWithPath: arguments[2])
    let service = Service(baseURL: url.deletingLastPathComponent().absoluteString)
    let target = service.resource(absoluteURL: url)
    // A small download first, so the session, its connection and the code paths are in place before measuring.
    let warmUp = service.resource(absoluteURL: url.deletingLastPathComponent().appendingPathComponent("1024"))
    warmUp.download(to: destination).onCompletion { _ in
        // Writing 5 to clear_refs resets the peak (VmHWM) to the current resident size.
        try? Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/self/clear_refs"))
        guard let before = statusBytes("VmRSS") else { exitWith("no /proc/self/status", code: 3) }
        target.download(to: destination).onCompletion { info in
            let peak = statusBytes("VmHWM") ?? Int.max
            FileHandle.standardOutput.write(Data("growth \(peak - before)\n".utf8))
            if let error = info.response.error { exitWith("failed \(error.userMessage)", code: 1) }
            let size = (try? FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int) ?? -1
            exitWith("saved \(size)", code: 0)
        }
    }
}

MainActor.assumeIsolated { run() }
RunLoop.main.run(until: Date(timeIntervalSinceNow: 180))  // bounded: alone, the download takes seconds
exitWith("timed out", code: 4)
