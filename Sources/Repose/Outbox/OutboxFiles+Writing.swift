import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension OutboxFiles {
    /// Writes `mutation`'s file whole before returning: a temporary file that Repose creates private to the user
    /// (0600, refusing one that already exists or a link), then a rename. `false` if it cannot be written, or is
    /// larger than ``maximumFileSize``.
    ///
    /// It runs on the caller's thread (the main actor) on purpose: once the mutation's call returns, its file is in
    /// the system's hands, so a process killed at any later moment leaves it behind (rule T2). It is not flushed to
    /// the device here (a flush takes milliseconds): ``flush(_:then:)`` does that off the main actor, and the
    /// mutation is sent only after it.
    func write(_ mutation: StoredMutation, launch: String) -> Bool {
        guard folderIsUsable(), let data = try? JSONEncoder().encode(mutation), data.count <= Self.maximumFileSize
        else { return false }
        let temporary = directory.appendingPathComponent(".\(launch).\(UUID().uuidString).tmp").path
        var descriptor = Self.create(temporary)
        if descriptor < 0, errno == ENOENT {  // the folder was removed since it was checked
            try? FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            descriptor = Self.create(temporary)
        }
        guard descriptor >= 0 else { return false }
        let written = Self.writeAll(data, to: descriptor)
        guard close(descriptor) == 0, written,
            rename(temporary, directory.appendingPathComponent(Self.fileName(mutation.key)).path) == 0
        else {
            unlink(temporary)
            return false
        }
        return true
    }

    private static func create(_ path: String) -> Int32 {
        open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    }

    private static func writeAll(_ data: Data, to descriptor: Int32) -> Bool {
        data.withUnsafeBytes { buffer -> Bool in
            guard var next = buffer.baseAddress else { return true }  // nothing to write
            var left = buffer.count
            while left > 0 {
                let count = systemWrite(descriptor, next, left)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                next += count
                left -= count
            }
            return true
        }
    }

    /// Flushes the files `names` and the folder's list of names to the device, where the platform allows: on Apple
    /// platforms a full flush of the drive's cache, once for the whole pass.
    static func flush(_ names: [String], in directory: URL) {
        for name in names {
            let descriptor = open(directory.appendingPathComponent(name).path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
            guard descriptor >= 0 else { continue }  // removed meanwhile: it will not be sent anyway
            _ = fsync(descriptor)
            close(descriptor)
        }
        let folder = open(directory.path, O_RDONLY | O_CLOEXEC)
        guard folder >= 0 else { return }
        #if canImport(Darwin)
        if fcntl(folder, F_FULLFSYNC) != 0 { _ = fsync(folder) }
        #else
        _ = fsync(folder)
        #endif
        close(folder)
    }
}

/// The system's `write(2)`, under a name that the method `write(_:launch:)` does not shadow.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(descriptor, bytes, count)
    #else
    Darwin.write(descriptor, bytes, count)
    #endif
}
