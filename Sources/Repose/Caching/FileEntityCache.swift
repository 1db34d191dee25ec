import Dispatch
import Foundation

/// An ``EntityCache`` that keeps entities as files in a folder, so data survives app launches.
///
/// It stores content that is `Data` or `String`, so attach it to a stage whose output is one of those: `rawData`
/// (bytes, parsed again on read) or `decoding` (text). Other content is not written. A file that cannot be read or
/// decoded counts as a miss and is removed; it never crashes the app.
///
/// What it writes stays private to the user running the app: on POSIX systems the folder it creates is readable by
/// that user only (0700) and so is every entry (0600), each entry is written whole or not at all (a temporary file,
/// then a rename), and cookies a server set (`Set-Cookie`, `Set-Cookie2`) are never written.
///
/// ```swift
/// let folder = FileManager.default.temporaryDirectory.appendingPathComponent("api-cache")
/// service.configure { $0.pipeline[.rawData].cacheUsing(FileEntityCache(directory: folder)) }
/// ```
public final class FileEntityCache: EntityCache {
    /// The folder that holds the files; created on first write.
    public let directory: URL
    /// The serial queue all file access happens on.
    public let workQueue = DispatchQueue(label: "Repose.FileEntityCache", qos: .utility)

    /// Creates a cache in `directory`.
    public init(directory: URL) {
        self.directory = directory
    }

    /// A stable file name derived from the resource's URL.
    @MainActor
    public func key(for resource: Resource) -> String? {
        Self.fileName(for: resource.url.absoluteString)
    }

    public func readEntity(forKey key: String) -> Entity<Any>? {
        let file = directory.appendingPathComponent(key)
        guard let data = try? Data(contentsOf: file) else { return nil }
        guard let stored = try? JSONDecoder().decode(StoredEntity.self, from: data), let entity = stored.entity else {
            try? FileManager.default.removeItem(at: file)  // unreadable, or with no content: a miss, not worth keeping
            return nil
        }
        return entity
    }

    /// Writes the entry to a temporary file that only this user can read, then renames it into place, so that a
    /// reader sees the old entry or the new one, never half of one, and no other user of the machine sees either.
    public func writeEntity(_ entity: Entity<Any>, forKey key: String) {
        guard let stored = StoredEntity(entity), let data = try? JSONEncoder().encode(stored) else { return }
        let files = FileManager.default
        try? files.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = directory.appendingPathComponent(".\(UUID().uuidString).tmp")
        guard files.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600])
        else { return }
        if rename(temporary.path, directory.appendingPathComponent(key).path) != 0 {
            try? files.removeItem(at: temporary)
        }
    }

    public func removeEntity(forKey key: String) {
        try? FileManager.default.removeItem(at: directory.appendingPathComponent(key))
    }

    /// Removes every entry from the folder. Repose calls it on ``workQueue`` when the app logs out with
    /// `Service.wipeResources()`, entries of released resources and earlier launches included.
    public func removeAllEntities() {
        let files = FileManager.default
        for name in (try? files.contentsOfDirectory(atPath: directory.path)) ?? [] {
            try? files.removeItem(at: directory.appendingPathComponent(name))
        }
    }

    /// FNV-1a, 64 bits, in hex: short, stable across launches and platforms, and safe as a file name.
    static func fileName(for url: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in url.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16) + ".entity"
    }
}

/// What a cache file holds.
private struct StoredEntity: Codable {
    var contentType: String
    var charset: String?
    var headers: [String: String]
    var timestamp: Double
    var bytes: Data?
    var text: String?

    init?(_ entity: Entity<Any>) {
        switch entity.content {
        case let data as Data: bytes = data
        case let string as String: text = string
        default: return nil
        }
        contentType = entity.contentType
        charset = entity.charset
        // Cookies a server set belong to the session that received them, not to the next launch's user.
        headers = entity.headers.filter { !StoredEntity.unstoredHeaders.contains($0.key.lowercased()) }
        timestamp = entity.timestamp
    }

    static let unstoredHeaders: Set<String> = ["set-cookie", "set-cookie2"]

    var entity: Entity<Any>? {
        guard let content: Any = bytes ?? text else { return nil }
        return Entity<Any>(
            content: content, contentType: contentType, charset: charset, headers: headers, timestamp: timestamp)
    }
}
