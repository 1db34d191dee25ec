import Dispatch
import Foundation
import Repose

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An outbox's folder: one journal, `mutations.journal`, private to the user (0600 in a 0700 folder), whose lines
/// store writes as they are made and end them as they are answered (see ``OutboxJournal``).
///
/// A write's line is appended before its call returns, so that a process killed at any later moment leaves it
/// behind (rule T2), and the journal is flushed to the device before the write is sent. A line is one `write(2)`
/// to a file already open: making a file per write instead cost a file's creation on the main actor for every
/// write (rule T4). The journal is written anew, with only the writes still pending, when it is read at launch,
/// when an account's writes are removed, and when ended writes outnumber pending ones; it is removed when
/// nothing is pending. Reading, flushing, ending and rewriting happen on one serial queue, never on the main actor.
///
/// The folder is the outbox's alone: reading it removes every other file unread, and drops every line that does not
/// decode, is of another format version, or goes to another origin than the service's (rule T3). Lines of another
/// partition are kept, unsent.
///
/// Every outbox of the process over one folder shares one instance (``at(_:)``): a rewrite by one cannot drop the
/// lines of another.
final class OutboxFiles: OutboxStorage, @unchecked Sendable {
    // Safe: `directory` and `queue` never change; everything else is only touched under `lock`.

    /// The folder's queue, shared by every outbox over it, so that a service started over a folder reads it after
    /// the removals of a service before it over the same folder. Work queued here holds the instance, so a later
    /// outbox over the folder gets this instance, and this queue, until that work is done. Outboxes over other
    /// folders never wait behind it, as the caches' folders do not (`CacheFolderQueue`).
    let queue = DispatchQueue(label: "Repose.Outbox", qos: .utility)

    /// The largest write the outbox stores: a bigger one stays in memory.
    static let maximumFileSize = 32 * 1024 * 1024
    /// The largest journal: a write that would make it bigger stays in memory, and a bigger file is removed
    /// unread, so that nothing planted in the folder can exhaust memory.
    static let maximumJournalSize = 64 * 1024 * 1024
    /// Named before writes had their name, and kept: a journal of an earlier build is still found.
    static let journalName = "mutations.journal"

    let directory: URL
    let lock = NSLock()
    /// The journal, open for appending, or -1 until the first line is written.
    var descriptor: Int32 = -1
    /// The journal's length: a line cut short by a failed write is cut off again.
    var size = 0
    /// The writes stored in the journal and not ended; whole once ``isRead``.
    var pending: Set<String> = []
    /// Whether the journal has been read in this process, so that ``pending`` lists all of it.
    var isRead = false
    /// Writes ended since the journal was last written anew: their lines are waste.
    var ended = 0
    /// The writes stored since the last flush began.
    var unflushed: [String] = []
    /// The flush queued last, while no other work was queued after it: a flush asked for now joins it.
    private var joinableFlush: FlushWaiters?
    private var folderCheck: PrivateFiles.FolderCheck?

    private static let instancesLock = NSLock()
    nonisolated(unsafe) private static var instances: [String: Weak] = [:]  // Safe: only under `instancesLock`
    private struct Weak { weak var files: OutboxFiles? }

    /// The instance for `directory`, shared by every outbox of the process over it.
    static func at(_ directory: URL) -> OutboxFiles {
        let path = directory.standardizedFileURL.path
        return instancesLock.withLock {
            if let files = instances[path]?.files { return files }
            instances = instances.filter { $0.value.files != nil }
            let files = OutboxFiles(directory: directory)
            instances[path] = Weak(files: files)
            return files
        }
    }

    private init(directory: URL) {
        self.directory = directory
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
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

    /// Flushes the journal to the device on the queue, then calls `done` there with the keys stored since the last
    /// flush began. Flushes asked for while one waits, with nothing queued after it, share it: a burst of writes
    /// costs one flush, and a flush never runs before work queued ahead of its call.
    func flush(then done: @escaping @Sendable ([String]) -> Void) {
        let queued: FlushWaiters? = lock.withLock {
            if let joinableFlush {
                joinableFlush.callbacks.append(done)
                return nil
            }
            let made = FlushWaiters(done)
            joinableFlush = made
            return made
        }
        guard let queued else { return }
        queue.async { [self] in
            let (keys, callbacks) = lock.withLock {
                if joinableFlush === queued { joinableFlush = nil }
                defer { unflushed.removeAll() }
                return (unflushed, queued.callbacks)
            }
            flushJournal()
            for done in callbacks { done(keys) }
        }
    }

    /// Runs `work` on the queue after everything queued before; a flush asked for later runs after it.
    func enqueue(_ work: @escaping @Sendable () -> Void) {
        lock.withLock { joinableFlush = nil }
        queue.async(execute: work)
    }

    /// Ends the write `key` in the journal, without waiting.
    func remove(_ key: String) {
        enqueue { [self] in
            lock.withLock { endLocked([key]) }
        }
    }
}

/// The callers of one flush, told once it is done. Only touched under the files' lock.
private final class FlushWaiters: @unchecked Sendable {
    var callbacks: [@Sendable ([String]) -> Void]

    init(_ first: @escaping @Sendable ([String]) -> Void) {
        callbacks = [first]
    }
}

extension OutboxStore {
    /// Keeps the outbox's writes in `directory`, a folder for this service alone, created private to the user (0700)
    /// on first write: one journal file whose lines are written before each write's call returns and flushed to
    /// the device before it is sent, so that a write survives a relaunch, a crash or a kill.
    public static func files(in directory: URL) -> OutboxStore {
        OutboxStore(storage: OutboxFiles.at(directory))
    }
}
