import Dispatch
import Foundation
import Repose

/// An `EntityCache` that keeps entities as files in a folder, so data survives app launches.
///
/// ```swift
/// let folder = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0].appendingPathComponent("api")
/// let cache = FileEntityCache(directory: folder, codecs: [.codable(User.self)])
/// service.configure { $0.pipeline[.rawData].cacheUsing(cache) }
/// ```
///
/// It stores `Data`, `String`, JSON values, and models of the types its ``CacheCodec``s know; other content is
/// skipped, with one log line per type. Each entry records a format version and the URL it belongs to (see
/// `CacheEntryFormat`): a file that is damaged, foreign, of another version or for another URL is a miss, and is
/// removed. ``Limits`` bound the folder's size and entry count, evicting the least recently used entries.
///
/// What it writes stays private to the user running the app: on POSIX systems the folder it creates is readable by
/// that user only (0700) and so is every file in it (0600, temporary files included); each entry is written whole
/// or not at all (a temporary file, then a rename); cookies a server set (`Set-Cookie`, `Set-Cookie2`) are
/// never written; with a ``partition`` set, entries of one partition are invisible to another.
///
/// A folder that already exists is checked on first use, before any entry is read: one of the user's own is
/// tightened to 0700 (and emptied if others could write to it, since an entry there may have been planted); one of
/// another user, or a symbolic link, is refused: one log line, reads miss, writes are dropped. Leftovers of a killed
/// process are removed then, and no symbolic link inside the folder is ever followed.
///
/// Repose calls every method but ``key(for:)`` on ``workQueue``. The pipeline stage is part of each entry's name
/// (but for `rawData`), so caches over one folder on different stages never share a file.
public final class FileEntityCache: EntityCache, @unchecked Sendable {
    // `@unchecked Sendable`: the mutable state (`state`) is only touched while holding `lock`.

    /// How much a cache may hold. After each write, least recently used entries (by read or write) go until both
    /// limits hold; entries already in the folder at launch count too.
    public struct Limits: Sendable, Equatable {
        /// The most bytes all entry files may take together.
        public var maximumSize: Int
        /// The most entries the folder may hold.
        public var maximumEntryCount: Int

        /// Limits of `maximumSize` bytes and `maximumEntryCount` entries.
        public init(maximumSize: Int, maximumEntryCount: Int) {
            self.maximumSize = maximumSize
            self.maximumEntryCount = maximumEntryCount
        }

        /// 50 MiB and 2,000 entries.
        public static let `default` = Limits(maximumSize: 50 * 1024 * 1024, maximumEntryCount: 2_000)
    }

    /// The folder that holds the files; created on first use.
    public let directory: URL
    /// How much the folder may hold.
    public let limits: Limits
    /// The serial queue all file access happens on: one for every cache of the process over the same folder.
    public var workQueue: DispatchQueue { folderQueue.queue }

    private let folderQueue: CacheFolderQueue
    private let codecs: [CacheCodec]
    private let shouldStore: (@MainActor @Sendable (Resource) -> Bool)?
    private let lock = NSLock()
    private var state = State()

    private struct State {
        var partition: String?
        /// Built from the folder on first use: the entries by recency, with their sizes.
        var index: RecencyIndex?
        /// What was logged once: the types of content that cannot be stored, and `""` for an unusable folder.
        var logged: Set<String> = []
        /// Why the folder may not be used (another user's, a symbolic link): reads miss, writes are dropped.
        var refusal: String?
    }

    /// Creates a cache in `directory`.
    ///
    /// - Parameters:
    ///   - directory: The folder for this cache alone; created, private to the user, on first write.
    ///   - limits: How much the folder may hold.
    ///   - codecs: How to store models; `Data`, `String` and JSON values need none.
    ///   - shouldStore: Which resources to store; all by default. A resource it rejects is never read or written.
    public init(
        directory: URL, limits: Limits = .default, codecs: [CacheCodec] = [],
        storing shouldStore: (@MainActor @Sendable (Resource) -> Bool)? = nil
    ) {
        self.directory = directory
        folderQueue = CacheFolderQueue.of(directory)
        self.limits = limits
        self.codecs = codecs
        self.shouldStore = shouldStore
    }

    /// Part of every key when set: an account id, say, so that one account's entries are misses for another, even
    /// if they were never removed. Set it before the account's resources are used.
    public var partition: String? {
        get { lock.withLock { state.partition } }
        set { lock.withLock { state.partition = newValue } }
    }

    /// Sets ``partition``: the entries of other partitions stay in the folder, as misses.
    @MainActor
    public func switchPartition(to partition: String?) {
        self.partition = partition
    }

    /// The partition, then the resource's URL; `nil` for a resource `storing` rejects.
    @MainActor
    public func key(for resource: Resource) -> String? {
        if let shouldStore, !shouldStore(resource) { return nil }
        let url = resource.url.absoluteString
        return partition.map { "\($0)\n\(url)" } ?? url
    }

    public func readEntity(forKey key: String) -> Entity<Any>? {
        let name = Self.fileName(for: key)
        let file = directory.appendingPathComponent(name)
        guard openIfNeeded() else { return nil }
        // Never through a symbolic link: an entry is a regular file this cache wrote.
        guard let data = PrivateFiles.read(named: name, in: directory) else {
            // Something unreadable where the entry belongs (a folder, a file without read permission): a miss, and
            // in the way of the next write.
            if FileManager.default.fileExists(atPath: file.path) { remove(name) }
            return nil
        }
        guard let (header, body) = CacheEntryFormat.decode(data, key: key), let content = decodeContent(header, body)
        else {
            remove(name)  // damaged, foreign, another version or another URL: a miss, not worth keeping
            return nil
        }
        // Recency must survive a relaunch: the file's modification time is what the next launch orders by.
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: file.path)
        lock.withLock { state.index?.touch(name) }
        return Entity<Any>(
            content: content, contentType: header.contentType, charset: header.charset, headers: header.headers,
            timestamp: header.timestamp)
    }

    /// Writes the entry to a temporary file that only this user can read, then renames it into place, so that a
    /// reader sees the old entry or the new one, never half of one, and no other user of the machine sees either.
    public func writeEntity(_ entity: Entity<Any>, forKey key: String) {
        guard openIfNeeded() else { return }
        guard let (kind, codec, body) = encodeContent(entity.content) else { return }
        let header = CacheEntryFormat.Header(
            key: key, url: Self.url(inKey: key), contentType: entity.contentType, charset: entity.charset,
            // Cookies a server set belong to the session that received them, not to the next launch's user.
            headers: entity.headers.filter { !Self.unstoredHeaders.contains($0.key.lowercased()) },
            timestamp: entity.timestamp, kind: kind, codec: codec, bodyLength: body.count)
        guard let data = CacheEntryFormat.encode(header, body: body) else { return }
        let name = Self.fileName(for: key)
        // Not flushed to the device: a lost entry costs only a network load, while a flush adds milliseconds to
        // every large write; a kill still leaves every entry whole, and the checksum turns what a power cut garbled
        // into a miss.
        guard PrivateFiles.write(data, named: name, in: directory, flushing: false) else {
            logUnwritableOnce()
            return
        }
        let evicted = lock.withLock { () -> [String] in
            state.index?.touch(name, size: data.count)
            return state.index?.evict(toFit: limits.maximumSize, maximumCount: limits.maximumEntryCount) ?? []
        }
        removeFiles(evicted)
    }

    public func removeEntity(forKey key: String) {
        guard openIfNeeded() else { return }
        remove(Self.fileName(for: key))
    }

    /// Removes every entry from the folder. Repose calls it on ``workQueue`` when the app logs out with
    /// `Service.wipeResources()`, entries of released resources and earlier launches included.
    public func removeAllEntities() {
        guard openIfNeeded() else { return }
        let files = FileManager.default
        for name in (try? files.contentsOfDirectory(atPath: directory.path)) ?? [] {
            try? files.removeItem(at: directory.appendingPathComponent(name))
        }
        lock.withLock { state.index = state.index.map { _ in RecencyIndex() } }
    }

    /// Removes the entries whose URL satisfies `predicate`, reading each entry's header to learn its URL.
    public func removeEntities(forURLsMatching predicate: @escaping @Sendable (URL) -> Bool) {
        guard openIfNeeded() else { return }
        for name in entryNames() {
            // Only the header is decoded: the body is not copied.
            guard let data = PrivateFiles.read(named: name, in: directory),
                let header = CacheEntryFormat.header(of: data)?.header
            else { continue }
            if URL(string: header.url).map(predicate) ?? false {
                remove(name)
            }
        }
    }

    /// The key of `resource`'s entry as the pipeline stage `stage` writes it: ``key(for:)``, behind a line naming
    /// the stage for every stage but `rawData` (whose entries keep the names they always had). Two caches over one
    /// folder on two stages therefore never share a file (rule T10).
    @MainActor
    public func key(for resource: Resource, at stage: PipelineStageKey) -> String? {
        guard let key = key(for: resource) else { return nil }
        return stage == .rawData ? key : "stage \(stage.name)\n\(key)"
    }

    // MARK: Files

    /// Headers never written to disk.
    static let unstoredHeaders: Set<String> = ["set-cookie", "set-cookie2"]

    /// FNV-1a, 64 bits, of the key, in hex: short, stable across launches and platforms, and safe as a file name.
    /// Two keys with one name are told apart by the key each entry records.
    static func fileName(for key: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16) + ".entity"
    }

    /// The URL part of a key: what follows the partition's line, if any.
    private static func url(inKey key: String) -> String {
        key.split(separator: "\n", omittingEmptySubsequences: false).last.map(String.init) ?? key
    }

    private func entryNames() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter {
            $0.hasSuffix(".entity")
        }
    }

    private func remove(_ name: String) {
        try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        lock.withLock { state.index?.remove(name) }
    }

    /// On first use: secures the folder (created or tightened to 0700, emptied if others could write to it, refused
    /// if it is another user's or a symbolic link), removes what interrupted writes left behind, and learns the
    /// entries already in the folder, oldest use first, so that the limits hold across launches. `false` if the
    /// folder is refused: nothing of it is read or written.
    private func openIfNeeded() -> Bool {
        let opened = lock.withLock { state.index != nil ? Optional(state.refusal == nil) : nil }
        if let opened { return opened }
        if case .refused(let reason) = PrivateFiles.openFolder(directory) {
            lock.withLock {
                state.refusal = reason
                state.index = RecencyIndex()
            }
            logUnwritableOnce(reason: reason)
            return false
        }
        var found: [(name: String, size: Int, used: Date)] = []
        for name in entryNames() {
            let path = directory.appendingPathComponent(name).path
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { continue }
            let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
            found.append((name, size, attributes[.modificationDate] as? Date ?? .distantPast))
        }
        var index = RecencyIndex()
        for entry in found.sorted(by: { $0.used < $1.used }) {
            index.touch(entry.name, size: entry.size)
        }
        let evicted = index.evict(toFit: limits.maximumSize, maximumCount: limits.maximumEntryCount)
        lock.withLock { state.index = index }
        removeFiles(evicted)
        return true
    }

    /// Removes the files `names`, already out of the index.
    private func removeFiles(_ names: [String]) {
        for name in names {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
    }

    // MARK: Content

    private func encodeContent(_ content: Any) -> (CacheEntryFormat.Kind, String?, Data)? {
        switch content {
        case let data as Data: return (.data, nil, data)
        case let text as String: return (.text, nil, Data(text.utf8))
        case let json where (json is [String: Any] || json is [Any]) && JSONSerialization.isValidJSONObject(json):
            if let data = try? JSONSerialization.data(withJSONObject: json) { return (.json, nil, data) }
        default:
            for codec in codecs {
                if let data = try? codec.encode(content) { return (.codec, codec.name, data) }
            }
        }
        logOnce(unstorable: content)
        return nil
    }

    private func decodeContent(_ header: CacheEntryFormat.Header, _ body: Data) -> Any? {
        switch header.kind {
        case .data: return body
        case .text: return String(data: body, encoding: .utf8)
        case .json: return try? JSONParsing.parse(body)
        case .codec:
            guard let codec = codecs.first(where: { $0.name == header.codec }) else { return nil }
            return try? codec.decode(body)
        }
    }

    // MARK: Logging

    private func logOnce(unstorable content: Any) {
        let type = String(reflecting: Swift.type(of: content))
        guard lock.withLock({ state.logged.insert(type).inserted }) else { return }
        ReposeLog.log(
            .cache,
            "FileEntityCache at \(directory.path) cannot store \(type) content; it is not cached. "
                + "Cache a stage whose content is Data, String or JSON, or add a codec: .codable(\(type).self)")
    }

    private func logUnwritableOnce(reason: String? = nil) {
        guard lock.withLock({ state.logged.insert("").inserted }) else { return }  // no type is named ""
        let why = reason.map { ": \($0)" } ?? ""
        ReposeLog.log(
            .cache, "FileEntityCache cannot use \(directory.path)\(why); entries are not stored, reads miss")
    }
}
