import Foundation

/// Files only the user running the app may read, written whole or not at all: the file cache and the outbox
/// write through here. Call it off the main actor.
enum PrivateFiles {
    /// Writes `data` to a temporary file in `directory` that only this user can read (0600, in a folder created
    /// 0700), then renames it to `name`, so that a reader sees the old file or the new one, never half of one.
    /// `false` if the folder is unwritable.
    static func write(_ data: Data, named name: String, in directory: URL) -> Bool {
        let files = FileManager.default
        try? files.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = directory.appendingPathComponent(".\(UUID().uuidString).tmp")
        guard files.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600])
        else { return false }
        guard rename(temporary.path, directory.appendingPathComponent(name).path) == 0 else {
            try? files.removeItem(at: temporary)
            return false
        }
        return true
    }

    /// Removes the temporary files of writes a crash cut short (never renamed into place).
    static func removeInterruptedWrites(in directory: URL) {
        let files = FileManager.default
        for name in (try? files.contentsOfDirectory(atPath: directory.path)) ?? []
        where name.hasPrefix(".") && name.hasSuffix(".tmp") {
            try? files.removeItem(at: directory.appendingPathComponent(name))
        }
    }
}
