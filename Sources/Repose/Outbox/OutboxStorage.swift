import Foundation

/// Where an ``Outbox`` keeps its writes: ``memory`` (the default) for the launch only, or a private folder, with
/// `.files(in:)` from the ReposeStorage module, so that writes not yet sent survive a relaunch or a crash.
///
/// ```swift
/// import ReposeStorage
///
/// let api = Service(baseURL: "https://api.example.com", options: .init(outbox: .files(in: outboxFolder)))
/// ```
public struct OutboxStore: Sendable {
    /// What keeps the writes, or `nil` for memory.
    package let storage: (any OutboxStorage)?

    package init(storage: (any OutboxStorage)?) {
        self.storage = storage
    }

    /// The writes live in the outbox's memory, for the launch.
    public static let memory = OutboxStore(storage: nil)
}

/// How the outbox keeps its writes across launches: five calls, so that where they are kept (ReposeStorage's
/// journal in a private folder) lives apart from what the outbox does with them. ``store(_:)`` runs on the caller's
/// thread; every other call does its work off it, in the order the calls were made.
package protocol OutboxStorage: AnyObject, Sendable {
    /// Stores `write` before returning, so that a process killed after the call leaves it behind (rule T2); `false`
    /// if it cannot be stored, and the write then lives in memory only.
    func store(_ write: StoredWrite) -> Bool

    /// Makes what was stored and removed before this call durable, then calls `done`, off the main actor, with the
    /// keys of the writes stored since the last flush: those may now be sent.
    func flush(then done: @escaping @Sendable ([String]) -> Void)

    /// Ends the write `key`: it was answered, withdrawn or wiped.
    func remove(_ key: String)

    /// Hands `completion`, off the main actor, the writes of `partition` to `origin` that earlier launches stored
    /// and nobody ended, oldest first; whatever is damaged or goes elsewhere is dropped for good (rules T1, T3).
    func readAll(
        partition: String?, origin: URL?, launch: String, _ completion: @escaping @Sendable ([StoredWrite]) -> Void)

    /// Ends the writes of `partition` whose URL satisfies `predicate`, stored or not yet read, except those the
    /// launch `launch` made at or after `sequence` (after the call). A later read finds them gone.
    func remove(
        partition: String?, where predicate: @escaping @Sendable (URL) -> Bool, sparing launch: String,
        from sequence: Int)
}

/// One write as the outbox's journal holds it.
package struct StoredWrite: Codable, Sendable {
    package static let currentVersion = 1

    /// The file format's version, first in the file.
    package var version = StoredWrite.currentVersion
    /// Orders writes made at the same time.
    package var sequence: Int
    /// The partition (account) that made it: it is read, and sent, only while the outbox is in that partition.
    package var partition: String?
    package init(sequence: Int, partition: String? = nil, launch: String? = nil, write: WriteData) {
        self.sequence = sequence
        self.partition = partition
        self.launch = launch
        self.write = write
    }

    /// The launch that wrote it, so that a log-out's removal spares the writes made after it.
    package var launch: String?
    package var write: WriteData

    /// The journal's keys, `"mutation"` included: journals written before writes had their name still read.
    private enum CodingKeys: String, CodingKey {
        case version, sequence, partition, launch
        case write = "mutation"
    }

    /// The write's idempotency key, which names it in the journal.
    package var key: String { write.idempotencyKey ?? "" }

    /// Whether the write, and the resource its change shows on, are at `origin`.
    package func goes(to origin: URL) -> Bool {
        [write.url, write.changeTarget].allSatisfy { url in
            guard let url else { return true }
            return URL(string: url).map { URLSessionProvider.Redirects.isSameOrigin($0, origin) } ?? false
        }
    }
}
