import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Removes what downloads of a killed process left in a folder (rule T8): their temporary files, recognised by
/// name, once no process holds them.
///
/// A download holds an exclusive `flock(2)` on its temporary file from before the file has its recognisable name
/// until it is renamed into place or removed, and the system drops the lock when the process dies. So a file of that
/// name that can be locked belongs to nobody: a leftover. The folder is the app's own (the downloads' destination),
/// so nothing else in it is touched. Each folder is looked at once per process, when a download first goes there.
enum DownloadLeftovers {
    /// The recognisable name of a download's temporary file, whatever its destination's name (rule X2).
    static func temporaryName(_ id: String) -> String { ".repose-download-\(id).partial" }
    /// The name a temporary file has before it is locked: never taken for a leftover while it may be in use.
    static func creatingName(_ id: String) -> String { ".repose-download-\(id).creating" }
    /// The ends of the names of a stopped download's kept bytes and of its note (``DownloadResume``).
    static let resumableSuffix = ".resumable"
    static let noteSuffix = ".resume-note"

    private static let lock = NSLock()
    /// Safe (`nonisolated(unsafe)`): only touched under `lock`.
    nonisolated(unsafe) private static var cleaned: Set<String> = []

    /// Removes the leftovers in `folder`, the first time a download goes there in this process.
    static func removeOnce(in folder: URL) {
        let path = folder.standardizedFileURL.path
        guard lock.withLock({ cleaned.insert(path).inserted }) else { return }
        remove(in: folder)
    }

    /// Removes the leftovers in `folder`: temporary files and kept bytes that no process holds, and notes without
    /// their bytes.
    static func remove(in folder: URL) {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasPrefix(".repose-download-") }
        for name in names where name.hasSuffix(".partial") || name.hasSuffix(resumableSuffix) {
            removeIfUnheld(folder.appendingPathComponent(name).path)
        }
        // Then the notes whose bytes are gone (a download resuming now holds its bytes, and keeps its note), and
        // notes left half-written.
        for name in names where name.hasSuffix(noteSuffix) || name.hasSuffix(noteSuffix + ".new") {
            let path = folder.appendingPathComponent(name).path
            let bytes = name.hasSuffix(".new") ? nil : String(name.dropLast(noteSuffix.count)) + resumableSuffix
            if bytes.map({ !FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path) }) ?? true {
                unlink(path)
            }
        }
    }

    /// Removes the file at `path` if it is a regular file that no process holds locked.
    private static func removeIfUnheld(_ path: String) {
        let file = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard file >= 0 else { return }
        defer { close(file) }
        var opened = stat()
        var named = stat()
        // Locked here, and still the file at that name (not renamed into place meanwhile): nobody is writing it.
        guard fstat(file, &opened) == 0, (opened.st_mode & S_IFMT) == S_IFREG, flock(file, LOCK_EX | LOCK_NB) == 0,
            lstat(path, &named) == 0, named.st_ino == opened.st_ino, named.st_dev == opened.st_dev
        else { return }
        unlink(path)
    }
}
