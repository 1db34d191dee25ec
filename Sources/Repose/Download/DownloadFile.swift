import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The file a download is written to: a private temporary file in the destination's folder, renamed into place
/// once the body is complete (rule X2). A download that stops early keeps its bytes for the next download to the same
/// destination when the server serves ranges (``DownloadResume``, rule Q3), and removes them otherwise.
///
/// The file is created with `open(2)` (`O_CREAT | O_EXCL`, mode 0600, then `fchmod` so that no umask widens or
/// narrows it) so that nobody else can read a byte of it at any moment, and nothing already at that name is
/// followed or overwritten. It sits beside the destination so that the final `rename(2)` stays on one file system
/// and is atomic: a reader of the destination sees the old file or the whole new one. Its name does not repeat the
/// destination's, so that any legal destination name works, and it stays locked while in use, so that the next
/// process to download into the folder can tell a killed process's leftover from a live download
/// (``DownloadLeftovers``, rule T8).
///
/// It is a download's ``BodySink``: each piece of the body is written as it arrives, so memory stays flat however
/// large the body, and the first write that fails stops the transfer. An error response's body never comes here (the
/// attempt reads it into memory, as a load's), and a 304 leaves the destination as it was.
///
/// Safe (`@unchecked Sendable`): the attempt calls `append` and `end` one at a time; `lock` guards the descriptor for
/// a cancellation from another thread.
final class DownloadFile: BodySink, @unchecked Sendable {
    let destination: URL
    /// The file being written: a fresh temporary file, or the bytes an earlier download kept for this destination.
    private(set) var temporary: URL
    private let folder: URL
    private let names: (bytes: String, note: String)
    /// A hash of the URL the body comes from, as sent: a kept download resumes only from the same one.
    private let url: String
    private let lock = NSLock()
    private var descriptor: Int32
    /// The `errno` of the write that failed, if one did.
    private(set) var writeError: Int32 = 0
    /// The bytes in the file, and where the body continues: 0 for a fresh download.
    private(set) var offset: Int64 = 0
    /// The validator to send as `If-Range` when resuming; after a response, the one it came with (rule Q3).
    private var validator: String?
    /// Whether a response's body began here: only then may its bytes be kept for a later resume.
    private var hasBegun = false

    /// Claims the bytes an earlier download kept for `destination` from `url`, or creates a fresh temporary file;
    /// throws ``RequestError/Cause/DownloadFileFailed`` if the folder is unwritable.
    init(destination: URL, url: URL?) throws {
        self.destination = destination
        folder = destination.deletingLastPathComponent()
        names = DownloadResume.names(for: destination)
        self.url = DownloadResume.hash(url?.absoluteString ?? "")
        temporary = folder.appendingPathComponent(names.bytes)
        descriptor = -1
        if let (file, size, kept) = Self.claim(names, in: folder, from: self.url) {
            (descriptor, offset, validator) = (file, size, kept.validator)
        } else {
            (descriptor, temporary) = try Self.create(in: folder, for: destination)
        }
        DownloadLeftovers.removeOnce(in: folder)  // after the claim: what is claimed is locked, and kept
    }

    /// The kept bytes for this destination, open for appending and locked, with their length and note; `nil` when
    /// there are none, another process holds them, or their note names another URL.
    private static func claim(
        _ names: (bytes: String, note: String), in folder: URL, from url: String
    ) -> (Int32, Int64, DownloadResume)? {
        guard let note = DownloadResume.read(named: names.note, in: folder), note.url == url else { return nil }
        let path = folder.appendingPathComponent(names.bytes).path
        let file = open(path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC)
        guard file >= 0 else { return nil }
        var status = stat()
        guard flock(file, LOCK_EX | LOCK_NB) == 0, fstat(file, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
            status.st_size > 0
        else {
            close(file)
            return nil
        }
        return (file, Int64(status.st_size), note)
    }

    /// A fresh private temporary file beside `destination`, open and locked.
    private static func create(in folder: URL, for destination: URL) throws -> (Int32, URL) {
        let id = UUID().uuidString
        let temporary = folder.appendingPathComponent(DownloadLeftovers.temporaryName(id))
        // Created under another name and locked before it takes the name leftovers are known by.
        let creating = folder.appendingPathComponent(DownloadLeftovers.creatingName(id)).path
        let fd = open(creating, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw RequestError.Cause.DownloadFileFailed(fileURL: destination, errorNumber: errno)
        }
        _ = fchmod(fd, 0o600)
        guard flock(fd, LOCK_EX | LOCK_NB) == 0, rename(creating, temporary.path) == 0 else {
            let number = errno
            close(fd)
            unlink(creating)
            throw RequestError.Cause.DownloadFileFailed(fileURL: destination, errorNumber: number)
        }
        return (fd, temporary)
    }

    /// The headers that ask for the rest of the kept bytes' body, if the download resumes: `Range` from the first
    /// byte not kept, and `If-Range`, so that a server whose body changed sends the whole new one instead.
    var resumeHeaders: [String: String] {
        guard offset > 0, let validator else { return [:] }
        return ["Range": "bytes=\(offset)-", "If-Range": validator]
    }

    /// Appends `data`; `false` if it could not be written (a full disk, say).
    func writeToFile(_ data: Data) -> Bool {
        lock.withLock {
            guard descriptor >= 0 else { return false }
            return data.withUnsafeBytes { buffer -> Bool in
                guard var pointer = buffer.baseAddress else { return true }
                var left = buffer.count
                while left > 0 {
                    let written = write(descriptor, pointer, left)
                    if written < 0 {
                        if errno == EINTR { continue }
                        writeError = errno
                        return false
                    }
                    left -= written
                    pointer += written
                }
                return true
            }
        }
    }

    var takesErrorBodies: Bool { false }

    /// A 206 continues the kept bytes; any other success is the whole body, so the kept bytes go (a server that
    /// ignores ranges, or whose body changed since).
    func begin(_ head: NetworkResponse) throws -> BodyNews? {
        try lock.withLock {
            hasBegun = true
            let continues = head.statusCode == 206 && offset > 0 && Self.start(of: head) == offset
            guard continues || head.statusCode != 206 else {
                validator = nil  // nothing of it is kept: the bytes it would continue are not the ones here
                throw RequestError.Cause.UnexpectedRange(
                    fileURL: destination, contentRange: head.header("Content-Range"))
            }
            if !continues, offset > 0 {
                guard ftruncate(descriptor, 0) == 0 else {
                    throw RequestError.Cause.DownloadFileFailed(fileURL: destination, errorNumber: errno)
                }
                offset = 0
            }
            validator = DownloadResume.validator(of: head) ?? (continues ? validator : nil)
        }
        return nil
    }

    /// The first byte a `Content-Range: bytes START-END/TOTAL` header covers.
    private static func start(of head: NetworkResponse) -> Int64? {
        guard let range = head.header("Content-Range"), range.hasPrefix("bytes ") else { return nil }
        return range.dropFirst(6).split(separator: "-").first.flatMap { Int64($0) }
    }

    func append(_ bytes: Data) throws -> BodyNews? {
        guard writeToFile(bytes) else {
            throw RequestError.Cause.DownloadFileFailed(fileURL: destination, errorNumber: writeError)
        }
        return nil
    }

    /// The file's URL once it is in place: the download's content.
    func end(_ head: NetworkResponse) throws -> BodyEnd {
        guard head.statusCode != 304 else {
            discard()
            return .whole(head)  // nothing changed: the resource keeps what it has
        }
        try finish()
        return .content(destination)
    }

    /// Closes the file and moves it into place; throws ``RequestError/Cause/DownloadFileFailed`` (and removes the
    /// temporary file) if it cannot.
    /// The file is renamed while still open, and so locked: no other process takes it for a leftover meanwhile.
    func finish() throws {
        try lock.withLock {
            guard descriptor >= 0 else {
                throw RequestError.Cause.DownloadFileFailed(fileURL: destination, errorNumber: EBADF)
            }
            defer {
                close(descriptor)
                descriptor = -1
                unlink(folder.appendingPathComponent(names.note).path)
            }
            guard rename(temporary.path, destination.path) == 0 else {
                let number = errno
                unlink(temporary.path)
                throw RequestError.Cause.DownloadFileFailed(fileURL: destination, errorNumber: number)
            }
        }
    }

    /// The transfer failed or was cancelled. Bytes of a body that began, from a server that serves ranges and
    /// named a validator, are kept for the next download to this destination (rule Q3); anything else is removed,
    /// so that a failed download leaves nothing behind. Safe to call more than once.
    func discard() {
        lock.withLock {
            guard descriptor >= 0 else { return }
            defer {
                close(descriptor)  // after the rename or the removal: the lock held it until then
                descriptor = -1
            }
            var status = stat()
            let size = fstat(descriptor, &status) == 0 ? Int64(status.st_size) : 0
            if hasBegun, size > 0, let validator, keep(validator) { return }
            unlink(temporary.path)
            unlink(folder.appendingPathComponent(names.note).path)
        }
    }

    /// Keeps the bytes under this destination's resume names, with their note; `false` if it could not.
    private func keep(_ validator: String) -> Bool {
        let kept = folder.appendingPathComponent(names.bytes)
        guard DownloadResume(url: url, validator: validator).save(named: names.note, in: folder) else { return false }
        guard temporary == kept || rename(temporary.path, kept.path) == 0 else {
            unlink(folder.appendingPathComponent(names.note).path)
            return false
        }
        temporary = kept
        return true
    }
}

extension RequestError.Cause {
    /// A download that asked for the rest of its file got a part that does not start where its kept bytes end (or
    /// a part it never asked for). Nothing is written to the destination, and the kept bytes are dropped: the next
    /// download starts from the first byte (rule Q3).
    public struct UnexpectedRange: Error, DisplayableCause {
        /// Where the download was going.
        public let fileURL: URL
        /// The `Content-Range` the server sent, if any.
        public let contentRange: String?
        var displayMessage: String {
            "The server sent a part of “\(fileURL.lastPathComponent)” that does not continue it."
        }
    }

    /// The file a download goes to could not be created, written or moved into place (an unwritable folder, a
    /// full disk). Nothing is left at the destination or beside it.
    public struct DownloadFileFailed: Error, DisplayableCause {
        /// Where the download was going.
        public let fileURL: URL
        /// The system's error number (`errno`).
        public let errorNumber: Int32
        var displayMessage: String { "The download could not be saved as “\(fileURL.lastPathComponent)”." }
    }
}
