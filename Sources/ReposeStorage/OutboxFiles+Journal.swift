import Foundation
import Repose

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension OutboxFiles {
    /// Appends `write`'s line to the journal before returning. `false` if it cannot be written, or would make the
    /// write or the journal larger than allowed.
    ///
    /// It runs on the caller's thread (the main actor) on purpose: once the write's call returns, its line is in
    /// the system's hands, so a process killed at any later moment leaves it behind (rule T2). It is not flushed to
    /// the device here (a flush waits for the disk): ``flush(then:)`` does that off the main actor, and the write
    /// is sent only after it.
    func store(_ write: StoredWrite) -> Bool {
        guard OutboxJournal.isKey(write.key), folderIsUsable(), let json = try? JSONEncoder().encode(write),
            json.count <= Self.maximumFileSize
        else { return false }
        let line = OutboxJournal.line(storing: write.key, json: json)
        return lock.withLock {
            guard size + line.count <= Self.maximumJournalSize, appendLocked(line) else { return false }
            pending.insert(write.key)
            unflushed.append(write.key)
            return true
        }
    }

    /// Ends `keys` in the journal; removes the journal when nothing is pending, and writes it anew when ended
    /// writes outnumber pending ones, so that its size follows what is pending.
    func endLocked(_ keys: [String]) {
        for key in keys where pending.remove(key) != nil || !isRead {
            if appendLocked(OutboxJournal.line(ending: key)) { ended += 1 }
        }
        if isRead, pending.isEmpty {
            removeJournalLocked()
        } else if ended > 64, ended > pending.count {
            rewriteLocked(OutboxJournal(readLocked()).pending)
        }
    }

    /// Flushes the journal, and the folder's list of names, to the device where the platform allows: on Apple
    /// platforms a full flush of the drive's cache. The lock is not held meanwhile, so the main actor's writes do not
    /// wait for the disk.
    func flushJournal() {
        let file = lock.withLock { descriptor >= 0 ? dup(descriptor) : -1 }
        if file >= 0 {
            _ = PrivateFiles.flush(file)
            close(file)
        }
        // The folder itself, never a link put in its place since it was checked.
        let folder = open(directory.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard folder >= 0 else { return }
        _ = PrivateFiles.flush(folder)
        close(folder)
    }

    /// Reads the writes of `partition` to `origin` in the journal, oldest first, and hands them to `completion`
    /// on the queue. Removes every other file of the folder, and the lines that are damaged or go elsewhere.
    func readAll(
        partition: String?, origin: URL?, launch: String,
        _ completion: @escaping @Sendable ([StoredWrite]) -> Void
    ) {
        enqueue { [self] in
            guard folderIsUsable() else { return completion([]) }
            let found = lock.withLock { readPendingLocked(origin: origin) }.filter { $0.partition == partition }
            completion(found.sorted { ($0.write.createdAt, $0.sequence) < ($1.write.createdAt, $1.sequence) })
        }
    }

    /// Removes the writes of `partition` whose URL satisfies `predicate`, except those this launch made at or
    /// after `sequence` (made after the call, for a later account). The journal is written anew without them, so
    /// that nothing of theirs stays on disk. Queued: a read queued after it finds them gone.
    func remove(
        partition: String?, where predicate: @escaping @Sendable (URL) -> Bool, sparing launch: String,
        from sequence: Int
    ) {
        enqueue { [self] in
            guard folderIsUsable() else { return }
            lock.withLock {
                let removed = readPendingLocked(origin: nil).filter { stored in
                    stored.partition == partition && !(stored.launch == launch && stored.sequence >= sequence)
                        && (URL(string: stored.write.url).map(predicate) ?? true)
                }
                guard !removed.isEmpty else { return }
                let keys = Set(removed.map(\.key))
                pending.subtract(keys)
                rewriteLocked(OutboxJournal(readLocked()).pending.filter { !keys.contains($0.key) })
            }
        }
    }

    // MARK: Under the lock

    /// The journal's pending writes that decode, are of this format and go to `origin` (any, if `nil`). Every
    /// other file in the folder is removed, and the journal is written anew if it holds anything else.
    private func readPendingLocked(origin: URL?) -> [StoredWrite] {
        removeForeignFilesLocked()
        let journal = OutboxJournal(readLocked())
        var kept: [OutboxJournal.Entry] = []
        var found: [StoredWrite] = []
        for entry in journal.pending {
            guard let stored = try? JSONDecoder().decode(StoredWrite.self, from: entry.json),
                stored.version == StoredWrite.currentVersion, stored.key == entry.key,
                origin.map({ stored.goes(to: $0) }) ?? true
            else { continue }  // damaged, planted or foreign: never sent
            kept.append(entry)
            found.append(stored)
        }
        pending = Set(kept.map(\.key))
        isRead = true
        if journal.hasWaste || kept.count < journal.pending.count { rewriteLocked(kept) }
        return found
    }

    /// The journal's contents; removed unread if it is not a regular file or larger than allowed.
    private func readLocked() -> Data {
        let url = directory.appendingPathComponent(Self.journalName)
        var status = stat()
        guard lstat(url.path, &status) == 0 else { return Data() }
        guard status.st_mode & S_IFMT == S_IFREG, Int(status.st_size) <= Self.maximumJournalSize,
            let data = PrivateFiles.read(named: Self.journalName, in: directory)
        else {
            removeJournalLocked()
            return Data()
        }
        return data
    }

    /// Writes the journal anew with `entries` only, whole and flushed, or removes it if there are none.
    private func rewriteLocked(_ entries: [OutboxJournal.Entry]) {
        guard !entries.isEmpty else { return removeJournalLocked() }
        var data = Data(capacity: entries.reduce(0) { $0 + $1.line.count })
        for entry in entries { data.append(entry.line) }
        closeLocked()
        if PrivateFiles.write(data, named: Self.journalName, in: directory) { ended = 0 }
    }

    private func removeJournalLocked() {
        closeLocked()
        unlink(directory.appendingPathComponent(Self.journalName).path)
        ended = 0
    }

    private func closeLocked() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        size = 0
    }

    /// Appends `line` whole, or cuts the journal back to where it was.
    private func appendLocked(_ line: Data) -> Bool {
        guard openLocked() else { return false }
        guard PrivateFiles.writeAll(line, to: descriptor) else {
            _ = ftruncate(descriptor, off_t(size))  // a half line would swallow the next one
            return false
        }
        size += line.count
        return true
    }

    /// Opens the journal for appending, made if missing (0600, never through a link), unless it is open and still
    /// in the folder. A last line a killed process left unfinished is ended first, so that the next line stays whole.
    private func openLocked() -> Bool {
        if descriptor >= 0 {
            var status = stat()
            if fstat(descriptor, &status) == 0, status.st_nlink > 0 { return true }
            closeLocked()  // removed by someone else: its lines are gone, a new journal starts
        }
        guard case .ready(let folder) = PrivateFiles.prepare(directory) else { return false }
        defer { close(folder) }
        let flags = O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC
        let file = openat(folder, Self.journalName, flags, 0o600)
        guard file >= 0 else { return false }
        var status = stat()
        guard fstat(file, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid(),
            fchmod(file, 0o600) == 0
        else {
            close(file)
            return false
        }
        descriptor = file
        size = Int(status.st_size)
        var last: UInt8 = 0
        if size > 0, pread(file, &last, 1, off_t(size - 1)) == 1, last != OutboxJournal.newline {
            if PrivateFiles.writeAll(Data([OutboxJournal.newline]), to: file) { size += 1 }
        }
        return true
    }

    /// Removes unread every file of the folder but the journal and this process's writes under way; folders are
    /// left alone (none can be a planted write).
    private func removeForeignFilesLocked() {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        where name != Self.journalName && !name.hasPrefix(PrivateFiles.temporaryPrefix) {
            let path = directory.appendingPathComponent(name).path
            var status = stat()
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT != S_IFDIR else { continue }
            unlink(path)
        }
    }
}
