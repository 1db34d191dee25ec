import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An outbox's folder: one file per mutation, JSON, private to the user (0600 files in a 0700 folder).
///
/// A file is `<idempotency key>.mutation`, holding a ``StoredMutation``. It is created whole before the mutation's
/// call returns (see `OutboxFiles+Writing.swift`), so that a process killed at any later moment leaves it behind;
/// it is flushed to the device before the mutation is sent. Reading, flushing and removing happen on one serial
/// queue, never on the main actor.
///
/// The folder is the outbox's alone: reading it removes, unread, every file that is not a mutation file, and removes
/// a mutation file that does not decode, is of another format version, is not named by its key (letters, digits and
/// dashes only, never empty), or goes to another origin than the service's (rule T3). Files of another partition are
/// left as they are, unsent.
final class OutboxFiles: @unchecked Sendable {
    // Safe: `directory` and `maximumFileSize` never change; the flush list and the folder's check are only touched
    // under `lock`.

    /// One queue for every outbox of the process, so that a service started over a folder reads it after the
    /// removals of a service before it over the same folder.
    static let queue = DispatchQueue(label: "Repose.Outbox", qos: .utility)

    /// The largest file the outbox writes or reads: a bigger mutation stays in memory, and a bigger file is removed
    /// unread, so that nothing planted in the folder can exhaust memory.
    static let maximumFileSize = 32 * 1024 * 1024

    let directory: URL
    private let lock = NSLock()
    private var unflushed: [String] = []
    private var folderCheck: PrivateFiles.FolderCheck?

    init(directory: URL) {
        self.directory = directory
    }

    /// Whether the folder may be used, checked once per outbox as a cache's folder is (rule T8): created 0700 if
    /// missing, made 0700 if this user owns it, emptied unread if others could write to it, and refused, with one log
    /// line, if it is a symbolic link or another user's. A refused folder is never read, and writes stay in memory.
    func folderIsUsable() -> Bool {
        lock.withLock {
            if folderCheck == nil {
                switch PrivateFiles.prepare(directory) {
                case .ready(let folder):
                    close(folder)
                    folderCheck = .ready
                case .refused(let reason):
                    ReposeLog.log(.cache, "Outbox cannot use \(directory.path): \(reason); writes live in memory only")
                    folderCheck = .refused(reason)
                }
            }
            return folderCheck == .ready
        }
    }

    /// Flushes the file of `key` to the device, then calls `done` on the queue with every key flushed by the same
    /// pass: the keys queued meanwhile share one pass, and `done` runs once per pass.
    func flush(_ key: String, then done: @escaping @Sendable ([String]) -> Void) {
        let isFirst = lock.withLock {
            unflushed.append(key)
            return unflushed.count == 1
        }
        guard isFirst else { return }
        Self.queue.async { [self] in
            let keys = lock.withLock {
                defer { unflushed.removeAll() }
                return unflushed
            }
            Self.flush(keys.map(Self.fileName), in: directory)
            done(keys)
        }
    }

    /// Removes the file of the mutation `key`, without waiting.
    func remove(_ key: String) {
        let file = directory.appendingPathComponent(Self.fileName(key))
        Self.queue.async { try? FileManager.default.removeItem(at: file) }
    }

    /// Removes the files of `partition` whose URL satisfies `predicate`, except those this launch made at or after
    /// `sequence` (made after the call, for a later account). Queued: a read queued after it finds them gone.
    func remove(
        partition: String?, where predicate: @escaping @Sendable (URL) -> Bool, sparing launch: String,
        from sequence: Int
    ) {
        let directory = directory
        Self.queue.async { [self] in
            guard folderIsUsable() else { return }
            for (file, stored) in Self.readFolder(directory, origin: nil, launch: launch)
            where stored.partition == partition {
                if stored.launch == launch, stored.sequence >= sequence { continue }
                if URL(string: stored.mutation.url).map(predicate) ?? true {
                    try? FileManager.default.removeItem(at: file)
                }
            }
        }
    }

    /// Reads the mutations of `partition` to `origin` in the folder, oldest first, and hands them to `completion` on
    /// the queue. Removes what interrupted writes left, and everything that is not a mutation of `origin`.
    func readAll(
        partition: String?, origin: URL?, launch: String,
        _ completion: @escaping @Sendable ([StoredMutation]) -> Void
    ) {
        let directory = directory
        Self.queue.async { [self] in
            guard folderIsUsable() else { return completion([]) }
            let found = Self.readFolder(directory, origin: origin, launch: launch).map(\.1).filter {
                $0.partition == partition
            }
            completion(found.sorted { ($0.mutation.createdAt, $0.sequence) < ($1.mutation.createdAt, $1.sequence) })
        }
    }

    /// Every valid mutation file of the folder with its content; every other file is removed, temporary files of
    /// writes cut short included, but not those of `launch`, whose writes may be under way. With an `origin`,
    /// mutations to other origins are removed too.
    private static func readFolder(_ directory: URL, origin: URL?, launch: String) -> [(URL, StoredMutation)] {
        let files = FileManager.default
        var found: [(URL, StoredMutation)] = []
        for name in (try? files.contentsOfDirectory(atPath: directory.path)) ?? [] {
            let file = directory.appendingPathComponent(name)
            guard let attributes = try? files.attributesOfItem(atPath: file.path),  // the link, not its target
                attributes[.type] as? FileAttributeType != .typeDirectory
            else { continue }  // a folder cannot be a planted write; it is left alone
            if name.hasPrefix(PrivateFiles.temporaryPrefix) { continue }  // this process's write, under way
            guard name.hasSuffix(".mutation"), attributes[.type] as? FileAttributeType == .typeRegular,
                ((attributes[.size] as? NSNumber)?.intValue ?? .max) <= maximumFileSize,
                let data = PrivateFiles.read(named: name, in: directory),
                let stored = try? JSONDecoder().decode(StoredMutation.self, from: data),
                stored.version == StoredMutation.currentVersion, !stored.key.isEmpty, name == stored.key + ".mutation",
                fileName(stored.key) == name,
                origin.map({ stored.goes(to: $0) }) ?? true
            else {
                try? files.removeItem(at: file)  // damaged, planted or foreign: never sent
                continue
            }
            found.append((file, stored))
        }
        return found
    }

    /// A key as a file name: the key's letters, digits and dashes only, so that no key from a file can name a path.
    static func fileName(_ key: String) -> String {
        String(key.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) || $0 == "-" }.prefix(64))
            + ".mutation"
    }
}

/// One mutation as an outbox file holds it.
struct StoredMutation: Codable, Sendable {
    static let currentVersion = 1

    /// The file format's version, first in the file.
    var version = StoredMutation.currentVersion
    /// Orders mutations made at the same time.
    var sequence: Int
    /// The partition (account) that made it: it is read, and sent, only while the outbox is in that partition.
    var partition: String?
    /// The launch that wrote it, so that a log-out's removal spares the writes made after it.
    var launch: String?
    var mutation: MutationData

    /// The mutation's idempotency key, which names its file.
    var key: String { mutation.idempotencyKey ?? "" }

    /// Whether the mutation, and the resource its change shows on, are at `origin`.
    func goes(to origin: URL) -> Bool {
        [mutation.url, mutation.changeTarget].allSatisfy { url in
            guard let url else { return true }
            return URL(string: url).map { URLSessionProvider.Redirects.isSameOrigin($0, origin) } ?? false
        }
    }
}
