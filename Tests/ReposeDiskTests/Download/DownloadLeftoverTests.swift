import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Downloads by a real child process (`repose-download-probe`) that is killed, or whose disk is full: what it leaves
/// behind, and when it stops (rules T8, X2).
@MainActor
@Suite("Downloads killed mid-way, or stopped by a full disk", .checksLifetimes)
final class DownloadLeftoverTests {
    let server: LoopbackServer
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("repose-leftover-\(UUID().uuidString)")

    init() async throws {
        server = try await LoopbackServer()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// What the folder holds, temporary files included.
    func contents() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    @Test("T8 a download killed with kill -9 leaves its temporary file; the next download into the folder removes it")
    func leftoverRemovedOnNextUse() async throws {
        let probe = try ChildProcess.executable(named: "repose-download-probe")
        let hanging = server.url("/hang?at=body").absoluteString
        for run in 0..<3 {
            let destination = folder.appendingPathComponent("killed-\(run).bin").path
            let output = try await ChildProcess.offTheTestThreads {
                try ChildProcess.killOnLine(probe, arguments: ["start", hanging, destination], line: "started")
            }
            #expect(output.contains("started"), "run \(run): \(output)")
        }
        // Each run's first download into the folder removed the leftover of the run before: one is left.
        #expect(contents().filter { $0.hasSuffix(".partial") }.count == 1, "\(contents())")

        let service = Service(baseURL: server.url("").absoluteString)
        LifetimeCheck.track(service)
        let kept = folder.appendingPathComponent("kept.bin")
        let info = await service.resource("/bytes/1000").download(to: kept).responseInfo
        #expect(info.response.error == nil)
        #expect(contents() == ["kept.bin"])
    }

    @Test(
        "X2 a full disk stops a download at its first failed write, not after the whole body, and leaves no file",
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status"), "sets RLIMIT_FSIZE, on Linux"))
    func fullDiskStopsTheTransfer() async throws {
        let probe = try ChildProcess.executable(named: "repose-download-probe")
        let size = 256 * 1024 * 1024
        let arguments = [
            "fsize", "\(1024 * 1024)", server.url("/large/\(size)").absoluteString,
            folder.appendingPathComponent("big.bin").path,
        ]
        let (status, output) = try await ChildProcess.offTheTestThreads {
            try ChildProcess.run(probe, arguments: arguments, environment: ProcessInfo.processInfo.environment)
        }
        let lines = output.split(separator: "\n")
        #expect(status == 1, "\(output)")
        #expect(lines.contains { $0.hasPrefix("failed The download could not be saved as “big.bin”") }, "\(output)")
        let received = try #require(lines.first { $0.hasPrefix("received ") }.flatMap { Int($0.dropFirst(9)) })
        #expect(received < size / 4, "read \(received) bytes of \(size) after the disk was full")
        #expect(contents().isEmpty, "\(contents())")
    }
}
