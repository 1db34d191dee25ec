import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension OutboxFiles {
    /// Writes `mutation`'s file whole before returning, through ``PrivateFiles/write(_:named:in:flushing:)`` (a
    /// private temporary file, then a rename). `false` if it cannot be written, or is larger than
    /// ``maximumFileSize``.
    ///
    /// It runs on the caller's thread (the main actor) on purpose: once the mutation's call returns, its file is in
    /// the system's hands, so a process killed at any later moment leaves it behind (rule T2). It is not flushed to
    /// the device here (a flush takes milliseconds): ``flush(_:then:)`` does that off the main actor, and the
    /// mutation is sent only after it.
    func write(_ mutation: StoredMutation) -> Bool {
        guard folderIsUsable(), let data = try? JSONEncoder().encode(mutation), data.count <= Self.maximumFileSize
        else { return false }
        return PrivateFiles.write(data, named: Self.fileName(mutation.key), in: directory, flushing: false)
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
