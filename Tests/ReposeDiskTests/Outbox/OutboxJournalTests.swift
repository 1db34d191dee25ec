import Foundation
import Synchronization
import Testing

@testable import Repose
@testable import ReposeStorage
@testable import ReposeTestSupport

/// The outbox's journal: one line per stored write and one per end, read back whole or not at all, and kept as
/// small as what is pending (rules T2, T3, T4). The time limit only guards against a hang: hundreds of writes
/// flushed to a disk that parallel builds share took longer than a minute once.
@MainActor
@Suite("The outbox's journal", .checksLifetimes, .timeLimit(.minutes(5)))
final class OutboxJournalTests {
    let app = OutboxFixture()

    @Test("T2 T3 a journal's lines: ended, repeated, damaged and cut-short lines are not pending")
    func lines() {
        let text = "+a1 {}\n+b2 {\"x\":1}\n-a1\n+c3 {}\n+c3 {\"y\":2}\n+../x {}\n+d4\ngarbage\n-zz\n+e5 {\"cut"
        let journal = OutboxJournal(Data(text.utf8))
        #expect(journal.pending.map(\.key) == ["b2", "c3"])
        #expect(journal.pending.map { String(decoding: $0.json, as: UTF8.self) } == [#"{"x":1}"#, #"{"y":2}"#])
        #expect(journal.hasWaste)
        let clean = OutboxJournal(OutboxJournal.line(storing: "k-1", json: Data("{}".utf8)))
        #expect(clean.pending.map(\.key) == ["k-1"] && !clean.hasWaste)
        #expect(
            !OutboxJournal.isKey("") && !OutboxJournal.isKey("a b")
                && !OutboxJournal.isKey(String(repeating: "a", count: 65)))
    }

    @Test("T2 a line a killed process left unfinished does not swallow the next launch's first write")
    func lineCutShort() async throws {
        await app.settle()
        app.service = nil
        try app.plant(line: Data(#"+cut {"version":1,"seq"#.utf8))
        let gate = app.holdFolderQueue()
        app.service = app.makeService()  // the read waits: the write below comes first
        app.service.resource("/notes/1").request(.post, json: ["after": "cut"])
        gate.signal()
        await app.settle()
        #expect(await app.stored().map(\.write.url) == ["https://api.example.com/notes/1"])
        app.service = nil
        app.service = app.makeService()  // the next launch reads it back
        await app.settle()
        #expect(app.outbox.status.pending.map(\.url.path) == ["/notes/1"])
    }

    @Test("T11 a flush asked for after a removal runs after it; flushes asked for together share one pass")
    func flushesKeepTheirPlace() async throws {
        await app.settle()
        let files = OutboxFiles.at(app.folder)
        let journal = app.folder.appendingPathComponent(OutboxFiles.journalName)
        func write(_ key: String) -> StoredWrite {
            let data = WriteData(
                method: "POST", url: "https://api.example.com/notes/\(key)", body: nil, headers: [:],
                idempotencyKey: key, createdAt: 0, changeTarget: nil, change: nil)
            return StoredWrite(sequence: 0, write: data)
        }
        // Each flush's keys, and the keys its pass found pending on disk.
        let passes = Mutex<[(keys: [String], onDisk: [String])]>([])
        let record: @Sendable ([String]) -> Void = { keys in
            let onDisk = OutboxJournal((try? Data(contentsOf: journal)) ?? Data()).pending.map(\.key)
            passes.withLock { $0.append((keys, onDisk)) }
        }
        let gate = app.holdFolderQueue()  // everything below is queued before any of it runs
        #expect(files.store(write("a")) && files.store(write("b")))
        files.flush(then: record)
        files.flush(then: record)  // nothing queued since the first: it shares that pass
        files.remove("a")
        files.flush(then: record)  // after the removal: a pass of its own, which finds "a" ended
        gate.signal()
        await waitUntil { passes.withLock { $0.count } == 3 }
        let seen = passes.withLock { $0 }
        #expect(seen.map(\.keys) == [["a", "b"], ["a", "b"], []])
        #expect(seen.map(\.onDisk) == [["a", "b"], ["a", "b"], ["b"]])
    }

    @Test("T11 flush() waits for the journal's lines: once it returns, an answered write is no longer pending there")
    func flushWaitsForTheJournal() async throws {
        await app.settle()
        app.service.resource("/notes/1").request(.post, json: ["a": 1])
        await app.settle()
        let gate = app.holdFolderQueue()  // the end of the write, below, waits behind this
        await app.network.respond(status: 204)
        await app.outbox.idle()
        let flushed = Flag()
        let flushing = Task { @MainActor [service = app.service!] in
            await service.flush()
            flushed.isSet = true
        }
        for _ in 0..<20 { await Task.yield() }
        #expect(!flushed.isSet, "flush() returned while the journal's queue still held the write's end")
        gate.signal()
        await flushing.value
        // Removed once nothing is pending; read on this thread, not on the journal's queue.
        let journal = try? Data(contentsOf: app.folder.appendingPathComponent(OutboxFiles.journalName))
        #expect(journal.map { OutboxJournal($0).pending.isEmpty } ?? true)
    }

    @Test("T4 answered writes do not pile up: the journal is rewritten with what is pending, and removed when empty")
    func journalFollowsWhatIsPending() async throws {
        await app.settle()
        let notes = (0..<10).map { app.service.resource("/notes/\($0)") }
        for index in 0..<300 { notes[index % 10].request(.post, json: ["i": index]) }
        await app.settle()
        let journal = app.folder.appendingPathComponent(OutboxFiles.journalName)
        for _ in 0..<25 {  // 25 rounds of one answer per resource: 250 writes answered, 5 per resource left
            #expect(app.network.pendingCount == 10)
            for _ in 0..<10 { await app.network.respond(status: 204) }
            await app.outbox.wait { [network = app.network] _ in network.pendingCount == 10 }
        }
        _ = await app.files()  // what the outbox's queue had to do is done
        let data = try Data(contentsOf: journal)
        let lines = data.filter { $0 == OutboxJournal.newline }.count
        #expect(OutboxJournal(data).pending.count == 50)
        #expect(lines <= 50 + 2 * 65, "\(lines) lines for 50 pending writes")
        for _ in 0..<5 {
            for _ in 0..<10 { await app.network.respond(status: 204) }
            await app.outbox.wait { [network = app.network] in network.pendingCount == 10 || $0.status.isEmpty }
        }
        #expect(app.outbox.status.isEmpty)
        #expect(await app.files().isEmpty)
    }

    @Test("T2 a journal removed under a running app is made again: a write after that is still on disk")
    func journalRemovedMeanwhile() async throws {
        await app.settle()
        app.service.resource("/notes/1").request(.post, json: ["a": 1])
        await app.settle()
        try FileManager.default.removeItem(at: app.folder)
        app.service.resource("/notes/2").request(.post, json: ["b": 2])
        #expect(await app.stored().map(\.write.url) == ["https://api.example.com/notes/2"])
    }
}

/// Set once, on the main actor.
@MainActor
private final class Flag {
    var isSet = false
}
