import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The file a download is written to: a private temporary file in the destination's folder, renamed into place
/// once the body is complete, removed otherwise (rule X2).
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
    let temporary: URL
    private let lock = NSLock()
    private var descriptor: Int32
    /// The `errno` of the write that failed, if one did.
    private(set) var writeError: Int32 = 0

    /// Creates the temporary file; throws ``RequestError/Cause/DownloadFileFailed`` if the folder is unwritable.
    init(destination: URL) throws {
        self.destination = destination
        let folder = destination.deletingLastPathComponent()
        DownloadLeftovers.removeOnce(in: folder)
        let id = UUID().uuidString
        temporary = folder.appendingPathComponent(DownloadLeftovers.temporaryName(id))
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
        descriptor = fd
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

    func begin(_ head: NetworkResponse) throws -> BodyNews? { nil }

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
            }
            guard rename(temporary.path, destination.path) == 0 else {
                let number = errno
                unlink(temporary.path)
                throw RequestError.Cause.DownloadFileFailed(fileURL: destination, errorNumber: number)
            }
        }
    }

    /// Removes and closes the temporary file: a failed or cancelled download leaves nothing behind. Safe to call
    /// more than once.
    func discard() {
        lock.withLock {
            guard descriptor >= 0 else { return }
            unlink(temporary.path)  // before the close that drops the lock
            close(descriptor)
            descriptor = -1
        }
    }
}

extension RequestError.Cause {
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
