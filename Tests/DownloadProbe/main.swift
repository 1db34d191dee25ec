// A child process for the download memory test (DownloadMemoryTests): it downloads one URL to a file through Repose
// and URLSession, and prints how far its resident memory rose above where it stood just before.
//
// Usage: repose-download-probe <download URL> <destination file>
//
// Output: `growth <bytes>`, then `saved <bytes>` (the destination's size) or `failed <message>`. Linux only: it reads
// and resets the peak in /proc.
import Foundation
import Repose

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

@MainActor
func run() {
    let arguments = CommandLine.arguments
    guard arguments.count == 3, let url = URL(string: arguments[1]) else {
        finish("usage: repose-download-probe <download URL> <destination file>", code: 2)
    }
    let destination = URL(fileURLWithPath: arguments[2])
    let service = Service(baseURL: url.deletingLastPathComponent().absoluteString)
    let target = service.resource(absoluteURL: url)
    // A small download first, so the session, its connection and the code paths are in place before measuring.
    let warmUp = service.resource(absoluteURL: url.deletingLastPathComponent().appendingPathComponent("1024"))
    warmUp.download(to: destination).onCompletion { _ in
        // Writing 5 to clear_refs resets the peak (VmHWM) to the current resident size.
        try? Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/self/clear_refs"))
        guard let before = statusBytes("VmRSS") else { finish("no /proc/self/status", code: 3) }
        target.download(to: destination).onCompletion { info in
            let peak = statusBytes("VmHWM") ?? Int.max
            FileHandle.standardOutput.write(Data("growth \(peak - before)\n".utf8))
            if let error = info.response.error { finish("failed \(error.userMessage)", code: 1) }
            let size = (try? FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int) ?? -1
            finish("saved \(size)", code: 0)
        }
    }
}

MainActor.assumeIsolated { run() }
RunLoop.main.run(until: Date(timeIntervalSinceNow: 100))  // bounded: the download ends long before
finish("timed out", code: 4)
