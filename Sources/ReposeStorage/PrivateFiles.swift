import Foundation
import Repose

#if canImport(Glibc)
import Glibc

// The system calls by other names: inside `PrivateFiles`, `read` and `write` name its own methods.
private let systemRead = Glibc.read
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin

private let systemRead = Darwin.read
private let systemWrite = Darwin.write
#endif

/// Files only the user running the app may read, written whole or not at all: the file cache and the outbox
/// write through here. The cache calls it off the main actor; the outbox on it, without the flush, so that a write's
/// file exists once its call returns.
///
/// Every file is created by Repose itself with `open(2)`, exclusive and 0600 from its first byte, never through a
/// Foundation helper that writes a temporary file of its own (those start wider and are left behind by a crash).
/// Nothing follows a symbolic link found in the folder, nor a folder that is one.
enum PrivateFiles {
    /// What the temporary files of this process's writes are called: a dot-name, which no entry has, so that opening
    /// the folder can tell debris from entries, and the process id, so that a folder opened while this process is
    /// writing to it (a second cache over it) spares the writes under way.
    static let temporaryPrefix = ".repose-\(getpid())-"

    /// Writes `data` to a new temporary file in `directory` that only this user can read (0600, in a folder created
    /// or tightened to 0700), flushes it to the device, renames it to `name` and flushes the folder, so that a
    /// reader sees the old file or the new one, never half of one, and the new one survives a crash, power cut
    /// included, once this returns `true`. `false` if the folder is unwritable or refused (see ``prepare(_:)``).
    ///
    /// `flushing: false` skips both flushes, for files whose loss costs only time (cache entries): a killed process
    /// still leaves the old file or the new one, whole; a power cut may lose the newest, and a reader that checks
    /// what it reads (the cache's checksum) then finds a miss.
    static func write(_ data: Data, named name: String, in directory: URL, flushing: Bool = true) -> Bool {
        guard case .ready(let folder) = prepare(directory) else { return false }
        defer { close(folder) }
        let temporary = temporaryPrefix + UUID().uuidString + ".tmp"
        // Exclusive and without following links: a name planted in advance makes this write fail, never redirects it.
        let file = openat(folder, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard file >= 0 else { return false }
        var written = fchmod(file, 0o600) == 0 && writeAll(data, to: file) && (!flushing || flush(file))
        close(file)
        written = written && renameat(folder, temporary, folder, name) == 0
        guard written else {
            unlinkat(folder, temporary, 0)
            return false
        }
        if flushing { _ = flush(folder) }  // the rename itself, where the platform lets a folder be flushed
        return true
    }

    /// The contents of the regular file `name` in `directory`, or `nil` if there is none, it is a symbolic link or
    /// anything but a regular file, or it cannot be read.
    static func read(named name: String, in directory: URL) -> Data? {
        // Non-blocking: a FIFO planted under an entry's name would otherwise hold the cache's queue for ever.
        let file = open(directory.appendingPathComponent(name).path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard file >= 0 else { return nil }
        defer { close(file) }
        var status = stat()
        guard fstat(file, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        // One buffer of the file's size, filled in place: an entry is read whole, as `Data(contentsOf:)` would.
        let size = max(0, Int(status.st_size))
        var data = Data(count: size)
        var filled = 0
        let whole = data.withUnsafeMutableBytes { buffer -> Bool in
            guard let base = buffer.baseAddress else { return true }  // an empty file
            while filled < size {
                let count = systemRead(file, base + filled, size - filled)
                if count == 0 { break }  // shorter than it said: what is there is what it holds
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                filled += count
            }
            return true
        }
        guard whole else { return nil }
        if filled < size { data.count = filled }
        return data
    }

    // MARK: Descriptors

    static func writeAll(_ data: Data, to file: Int32) -> Bool {
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = systemWrite(file, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += count
            }
            return true
        }
    }

    /// Flushes `descriptor` to the device: on Apple systems with `F_FULLFSYNC`, which reaches the medium where
    /// `fsync` may stop at the drive's cache.
    static func flush(_ descriptor: Int32) -> Bool {
        #if canImport(Darwin)
        if fcntl(descriptor, F_FULLFSYNC) == 0 { return true }
        #endif
        return fsync(descriptor) == 0
    }
}
