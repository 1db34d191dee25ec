// A child process for the multipart memory test (UploadMemoryTests): it uploads one file as a multipart request
// through Repose and URLSession, and prints how far its resident memory rose above where it stood just before.
//
// Usage: repose-upload-probe <upload URL> <file>
//
// Output: `growth <bytes>`, then `received <bytes>` (the server's count) or `failed <message>`. Linux only: it reads and resets the peak in /proc.
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
