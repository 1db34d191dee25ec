import Foundation
import Testing

@testable import Repose
@testable import ReposeStorage
@testable import ReposeTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Kills a real child process (`repose-outbox-writer`, built with the tests) at varied moments while it queues
/// writes, then looks at the folder as the next launch would (rule T2).
@MainActor
@Suite("A process killed after queuing writes loses none", .checksLifetimes, .hangLimit)
struct OutboxKillTests {
    /// What one run of the writer showed before it died.
    struct Run: Sendable {
        /// The writes whose `request` had returned, by their index.
        var made: Set<Int> = []
        /// Attempts whose write had no line in the journal when the request left.
        var sentWithoutFile = 0
        var sent = 0
        var reason: Process.TerminationReason = .exit
    }

    @Test("T2 kill -9 at varied moments after request returned: every write is on disk, and none left before it")
    func killedWriterLosesNoWrite() async throws {
        var checked = 0
        // Each run is killed after a different number of writes, 0 to 250 in all; each kill lands while the
        // writer is queuing, flushing and sending.
        for (run, killAfter) in [0, 3, 17, 40, 80, 110].enumerated() {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "repose-outbox-kill-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let result = try await ChildProcess.offTheTestThreads {
                try Self.runWriterAndKill(folder: folder, count: 250, killAfter: killAfter)
            }
            #expect(result.reason == .uncaughtSignal, "run \(run) was not killed")
            let onDisk = try Self.writesOnDisk(in: folder)
            let lost = result.made.subtracting(onDisk)
            #expect(lost.isEmpty, "run \(run): \(lost.count) of \(result.made.count) writes lost")
            #expect(result.sentWithoutFile == 0, "run \(run): sent before its file was on disk")
            checked += result.made.count
        }
        #expect(checked >= 250)
    }

    /// The indexes of the writes whose lines are in the journal in `folder`, whole.
    private nonisolated static func writesOnDisk(in folder: URL) throws -> Set<Int> {
        let journal = try Data(contentsOf: folder.appendingPathComponent(OutboxFiles.journalName))
        var found: Set<Int> = []
        for entry in OutboxJournal(journal).pending {
            let stored = try JSONDecoder().decode(StoredWrite.self, from: entry.json)
            let body = try JSONSerialization.jsonObject(with: stored.write.body ?? Data()) as? [String: Int]
            if let index = body?["i"] { found.insert(index) }
        }
        return found
    }

    /// Starts the writer over `folder`, kills it with SIGKILL as soon as it reports `killAfter` writes made, then
    /// reads what it printed until it died.
    private nonisolated static func runWriterAndKill(folder: URL, count: Int, killAfter: Int) throws -> Run {
        let writer = Process()
        writer.executableURL = try ChildProcess.executable(named: "repose-outbox-writer")
        writer.arguments = [folder.path, "\(count)"]
        let output = Pipe()
        writer.standardOutput = output
        try writer.run()
        let watchdog = DispatchWorkItem { [writer] in if writer.isRunning { kill(writer.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 30, execute: watchdog)
        defer {
            watchdog.cancel()
            if writer.isRunning { kill(writer.processIdentifier, SIGKILL) }
            writer.waitUntilExit()
        }
        var run = Run()
        var pending = ""
        var killed = false
        let reader = output.fileHandleForReading
        while true {  // bounded: EOF comes when the writer dies, by the kill below or the watchdog
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            pending += String(decoding: chunk, as: UTF8.self)
            while let newline = pending.firstIndex(of: "\n") {
                let line = pending[..<newline].split(separator: " ")
                pending = String(pending[pending.index(after: newline)...])
                if line.first == "made", let index = line.last.flatMap({ Int($0) }) { run.made.insert(index) }
                if line.first == "sent" {
                    run.sent += 1
                    if line.last == "NOT-ON-DISK" { run.sentWithoutFile += 1 }
                }
            }
            if !killed, run.made.count > killAfter || pending.contains("done") {
                kill(writer.processIdentifier, SIGKILL)
                killed = true
            }
        }
        writer.waitUntilExit()
        run.reason = writer.terminationReason
        return run
    }
}
