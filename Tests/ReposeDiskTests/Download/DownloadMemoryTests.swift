import Foundation
import Testing

@testable import ReposeTestSupport

/// A 1 GiB download by a real child process: its memory must stay flat, because the body streams to the file
/// instead of collecting in memory (rule X2).
@Suite("X2 a large download streams to disk")
final class DownloadMemoryTests {
    let server: LoopbackServer

    init() async throws {
        server = try await LoopbackServer()
    }

    @Test(
        "X2 downloading 1 GiB raises the downloader's peak memory by less than 64 MB",
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/clear_refs"), "reads its peak from /proc"))
    func oneGibibyteInFlatMemory() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "repose-download-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let size = 1 << 30
        let executable = try ChildProcess.executable(named: "repose-download-probe")
        let arguments = [
            "http://127.0.0.1:\(server.port)/large/\(size)", folder.appendingPathComponent("big.bin").path,
        ]
        // Under AddressSanitizer, freed memory waits in a quarantine, which would count as growth; and the leak
        // check at exit would end the probe with its own status before its output is flushed.
        var environment = ProcessInfo.processInfo.environment
        environment["ASAN_OPTIONS"] = [environment["ASAN_OPTIONS"], "quarantine_size_mb=0:detect_leaks=0"]
            .compactMap { $0 }.joined(separator: ":")
        // The probe gives up after 180 s by itself (under AddressSanitizer beside the whole suite it may need
        // minutes); the helper's bound is a second guard behind it.
        let (status, text) = try await ChildProcess.offTheTestThreads { [environment] in
            try ChildProcess.run(executable, arguments: arguments, environment: environment, timeout: 240)
        }

        let lines = text.split(separator: "\n")
        let growth = try #require(lines.first { $0.hasPrefix("growth ") }.flatMap { Int($0.dropFirst(7)) }, "\(text)")
        let saved = try #require(lines.first { $0.hasPrefix("saved ") }.flatMap { Int($0.dropFirst(6)) }, "\(text)")
        #expect(status == 0, "\(text)")
        #expect(saved == size)
        #expect(growth < 64 * 1024 * 1024, "peak memory rose by \(growth / 1024) KiB")
    }
}
