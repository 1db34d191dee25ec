import Foundation
import Repose

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension PrivateFiles {
    /// A folder, secured for use, or why it may not be used.
    enum Folder {
        /// Open (an `O_DIRECTORY` descriptor the caller closes), owned by this user, 0700 or narrower.
        case ready(Int32)
        /// Not to be read or written: why, in words for a log line.
        case refused(String)
    }

    /// Whether a folder may be used, once opened with ``openFolder(_:)``.
    enum FolderCheck: Equatable {
        case ready
        case refused(String)
    }

    /// Creates `directory` (0700, parents included) if it is missing, and opens it, refusing a folder that is a
    /// symbolic link, is not a folder, or belongs to another user. A folder that others could read is tightened to
    /// 0700; one that others could write to is also emptied, since anything in it may have been planted.
    static func prepare(_ directory: URL) -> Folder {
        let flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC
        var folder = open(directory.path, flags)
        if folder < 0, errno == ENOENT {  // created only when missing: most writes find it there
            try? FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            folder = open(directory.path, flags)
        }
        guard folder >= 0 else {
            let code = errno
            if code == ELOOP || code == ENOTDIR { return .refused("it is a symbolic link or not a folder") }
            return .refused("it cannot be opened (\(String(cString: strerror(code))))")
        }
        var status = stat()
        guard fstat(folder, &status) == 0 else {
            close(folder)
            return .refused("its owner cannot be read")
        }
        guard status.st_uid == geteuid() else {
            close(folder)
            return .refused("it belongs to another user (uid \(status.st_uid))")
        }
        let mode = Int(status.st_mode) & 0o777
        if mode & 0o077 != 0 {
            guard fchmod(folder, 0o700) == 0 else {
                close(folder)
                return .refused("others can reach it and it cannot be made private")
            }
            if mode & 0o022 != 0 { emptyUntrusted(folder, directory) }
        }
        return .ready(folder)
    }

    /// Secures `directory` (see ``prepare(_:)``), then removes what a killed process left in it: every dot-name
    /// (Repose's temporary files, a Foundation helper's `.dat.nosync…`, anything hidden) but the temporary files of
    /// this process's writes, symbolic links and files of other users; entries are made 0600. Run it when a folder
    /// is first used in a launch.
    static func openFolder(_ directory: URL) -> FolderCheck {
        switch prepare(directory) {
        case .refused(let reason):
            return .refused(reason)
        case .ready(let folder):
            defer { close(folder) }
            for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [] {
                var status = stat()
                guard fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
                let kind = status.st_mode & S_IFMT
                if name.hasPrefix(temporaryPrefix) {
                    continue  // a write of this very process, under way on another queue
                } else if name.hasPrefix(".") || kind == S_IFLNK || status.st_uid != geteuid() {
                    remove(name, in: folder, directory)
                } else if kind == S_IFREG, Int(status.st_mode) & 0o777 != 0o600 {
                    fchmodat(folder, name, 0o600, 0)
                }
            }
            return .ready
        }
    }

    /// Removes everything in a folder that others could write to: none of it can be told from a planted file.
    private static func emptyUntrusted(_ folder: Int32, _ directory: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names {
            remove(name, in: folder, directory)
        }
        ReposeLog.log(
            .cache,
            "\(directory.path) was writable by other users: made private, and its \(names.count) files removed "
                + "unread, since any of them could have been planted")
    }

    /// Removes `name` without following it if it is a link; a folder goes with its contents.
    private static func remove(_ name: String, in folder: Int32, _ directory: URL) {
        if unlinkat(folder, name, 0) != 0 {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
    }
}
