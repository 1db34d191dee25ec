import Foundation
import ReposeStorage
import Testing

@testable import Repose
@testable import ReposeTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Kills a real child process (`repose-cache-writer`, built with the tests) in the middle of its cache writes, then
/// opens the folder as the next launch would.
@MainActor
@Suite("A process killed mid-write leaves only whole cache entries", .checksLifetimes, .timeLimit(.minutes(5)))
struct CacheCrashTests {
    let keyCount = 4

    @Test("K2 T8 after 20 kills mid-write, every entry is whole and 0600, and reopening leaves no temporary file")
    func killedWriterLeavesWholeEntries() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("repose-crash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let service = Service(baseURL: "https://writer.test")
        LifetimeCheck.track(service)
        // Each launch is killed at a different point; each next launch must find every entry whole.
        for writesBeforeKill in stride(from: 5, through: 62, by: 3) {
            let (completed, reason) = try await ChildProcess.offTheTestThreads {
                try Self.runWriterAndKill(folder: folder, afterWrites: writesBeforeKill)
            }
            #expect(completed >= writesBeforeKill)
            #expect(reason == .uncaughtSignal)
            let cache = FileEntityCache(directory: folder)
            var whole = 0
            for index in 0..<keyCount {
                let key = try #require(cache.key(for: service.resource("/entry/\(index)")))
                guard let entity = cache.workQueue.sync(execute: { cache.readEntity(forKey: key) }) else { continue }
                let version = Int(entity.timestamp)
                let data = try #require(entity.content as? Data, "entry \(index) is not bytes")
                #expect(version % keyCount == index, "entry \(index) holds another entry's write")
                #expect(data.count == Self.size(entry: index, version: version), "entry \(index) is torn")
                #expect(data.allSatisfy { $0 == Self.byte(version: version) }, "entry \(index) mixes writes")
                whole += 1
            }
            // Every key was written before the kill; a write cut short leaves the previous version in place.
            #expect(whole == keyCount, "killed after \(completed) writes: \(keyCount - whole) entries lost")
            // Opening the folder removed what the cut-short write left behind.
            // Leftovers of any kind (Repose's own temporaries, or a Foundation helper's `.dat.nosync…`) are gone,
            // and every file is private to the user (rule T8).
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(!left.contains { $0.hasPrefix(".") }, "temporary files left: \(left)")
            for name in left {
                let attributes = try FileManager.default.attributesOfItem(
                    atPath: folder.appendingPathComponent(name).path)
                #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600, "\(name) is not 0600")
            }
        }
    }

    /// Starts the writer over `folder`, waits until it reports `count` completed writes, kills it with SIGKILL and
    /// reaps it. Returns how many writes it reported, and how it ended.
    private nonisolated static func runWriterAndKill(
        folder: URL, afterWrites count: Int
    ) throws -> (Int, Process.TerminationReason) {
        let writer = Process()
        writer.executableURL = try ChildProcess.executable(named: "repose-cache-writer")
        writer.arguments = [folder.path]
        let output = Pipe()
        writer.standardOutput = output
        try writer.run()
        defer {
            if writer.isRunning { kill(writer.processIdentifier, SIGKILL) }
            writer.waitUntilExit()
        }
        // Reads lines until `count` writes completed and the next one has started, then kills at once: the kill
        // lands in the middle of that write (or just after it), the moment a non-atomic write would tear.
        var reported = 0
        var pending = ""
        let reader = output.fileHandleForReading
        reading: while true {  // bounded by the writer: it stops after 100,000 writes, and EOF ends the loop
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            pending += String(decoding: chunk, as: UTF8.self)
            while let newline = pending.firstIndex(of: "\n") {
                let line = pending[..<newline]
                pending = String(pending[pending.index(after: newline)...])
                if line.hasPrefix("wrote ") { reported += 1 }
                if line.hasPrefix("writing "), reported >= count { break reading }
            }
        }
        kill(writer.processIdentifier, SIGKILL)
        writer.waitUntilExit()
        return (reported, writer.terminationReason)
    }

    // The writer's content rule (Tests/CacheWriter/main.swift).
    static func size(entry: Int, version: Int) -> Int { 200_000 + (version * 7919 + entry * 104_729) % 900_000 }
    static func byte(version: Int) -> UInt8 { UInt8(version % 251) }
}
