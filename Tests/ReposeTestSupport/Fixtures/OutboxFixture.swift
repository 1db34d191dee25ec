import Foundation
import Testing

@testable import Repose

#if canImport(FoundationNetworking)
import FoundationNetworking
@testable import ReposeStorage
#endif

/// A service whose `/notes/**` writes use the outbox over a temporary folder, with the network answered by hand
/// and a credential the test changes as accounts sign in and out.
@MainActor
final class OutboxFixture {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID().uuidString)")
    let network = ManualNetwork()
    let scheduler = TestScheduler(now: .seconds(1000))
    let reconnected = SignalSource<Void>()
    let token = Token()
    var service: Service!
    /// The gates of ``holdFolderQueue()``, released when the fixture goes.
    private var holds: [DispatchSemaphore] = []

    /// The credential the app holds, which it may change between attempts.
    final class Token: @unchecked Sendable {
        // Safe: only touched on the main actor, by the test and the configured mutator.
        var value = "alice"
    }

    init(baseURL: String = "https://api.example.com", folder useFolder: Bool = true) {
        service = makeService(baseURL: baseURL, folder: useFolder)
    }

    deinit {
        Task { [network] in await network.failPending() }
        for gate in holds { gate.signal() }  // a gate already signalled gains a count nothing waits for
        try? FileManager.default.removeItem(at: folder)
    }

    /// A new launch of the app over the same folder.
    func makeService(baseURL: String = "https://api.example.com", folder useFolder: Bool = true) -> Service {
        let token = token
        let service = Service(
            baseURL: baseURL,
            options: .init(
                networking: network, scheduler: scheduler, reconnected: reconnected.signal,
                outbox: useFolder ? .files(in: folder) : .memory))
        LifetimeCheck.track(service)
        service.configure("/notes/**") { $0.usesOutbox = true }
        service.configure {
            $0.mutateRequests { $0.setValue("Bearer \(token.value)", forHTTPHeaderField: "Authorization") }
        }
        return service
    }

    var outbox: Outbox { service.outbox }

    /// Waits until the folder is read and every write is on the device: what may go is then on its way.
    func settle() async {
        await outbox.wait { !$0.isReading && $0.book.storingCount == 0 }
    }

    /// Fails every request on its way as an offline network would, and waits until the outbox has taken it in.
    func goOffline() async {
        await settle()
        while network.pendingCount > 0 { await network.fail(with: URLError(.notConnectedToInternet)) }
        await outbox.idle()
    }

    /// The `Authorization` header of each request sent since `start`, the index in ``ManualNetwork/sent``.
    func credentials(sentSince start: Int) -> [String] {
        network.sent.dropFirst(start).map { $0.header("Authorization") ?? "" }
    }

    /// The folder's files, by name, read on the outbox's queue once what is queued there is done.
    func files() async -> [String: Data] {
        await Self.files(in: folder)
    }

    /// The files in `folder`, by name, read on the outbox's queue once what is queued there is done.
    nonisolated static func files(in folder: URL) async -> [String: Data] {
        await withCheckedContinuation { continuation in
            OutboxFiles.at(folder).queue.async { [folder] in
                let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
                let files = Dictionary(
                    uniqueKeysWithValues: names.map {
                        ($0, (try? Data(contentsOf: folder.appendingPathComponent($0))) ?? Data())
                    })
                continuation.resume(returning: UncheckedTransfer(files))
            }
        }.value
    }

    /// Holds the folder's queue until the returned gate is signalled: a read of the folder queued meanwhile waits, as
    /// a slow disk would make it. Only this folder's work waits, and only for as long as the test takes: the test
    /// releases it, and so does this fixture when it goes, however the test ends. (The queue was once the whole
    /// process's, held here with a 10 s bound, which a loaded machine ran out before the test released it.)
    func holdFolderQueue() -> DispatchSemaphore {
        let gate = DispatchSemaphore(value: 0)
        holds.append(gate)
        let files = OutboxFiles.at(folder)
        // The block holds the folder's instance, as the outbox's own work does: a service made meanwhile over the
        // folder gets it, and its queue, rather than a new one.
        files.queue.async { withExtendedLifetime(files) { gate.wait() } }
        return gate
    }

    /// The writes pending in the folder's journal, in order, read on the outbox's queue once what is queued
    /// there is done.
    func stored() async -> [StoredWrite] {
        await Self.stored(in: folder)
    }

    /// The writes pending in the journal in `folder`, read on the outbox's queue once what is queued there is done.
    nonisolated static func stored(in folder: URL) async -> [StoredWrite] {
        let files = await files(in: folder)
        let journal = OutboxJournal(files[OutboxFiles.journalName] ?? Data())
        return journal.pending.compactMap { try? JSONDecoder().decode(StoredWrite.self, from: $0.json) }
    }

    /// Appends a write's line to the folder's journal as another program (or an earlier launch) would: a key that
    /// cannot name a write makes a line the outbox drops.
    func plant(
        _ url: String, sequence: Int = 0, partition: String? = nil, key: String = UUID().uuidString
    ) throws {
        let data = WriteData(
            method: "POST", url: url, body: Data("{}".utf8), headers: [:], idempotencyKey: key, createdAt: 900,
            changeTarget: nil, change: nil)
        let stored = StoredWrite(sequence: sequence, partition: partition, write: data)
        try plant(line: Data("+\(key) ".utf8) + JSONEncoder().encode(stored) + Data("\n".utf8))
    }

    /// Appends `line` to the folder's journal as it is.
    func plant(line: Data) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let journal = folder.appendingPathComponent(OutboxFiles.journalName)
        if !FileManager.default.fileExists(atPath: journal.path) { try Data().write(to: journal) }
        let handle = try FileHandle(forWritingTo: journal)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: line)
    }
}
