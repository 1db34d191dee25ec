import Dispatch
import Foundation

/// An outbox's folder: one file per mutation, JSON, written whole (a temporary file, then a rename), private to the
/// user (0600 files in a 0700 folder), read and written only on one serial queue, never on the main actor.
///
/// A file is `<idempotency key>.mutation`, holding a ``StoredMutation``. A file that does not decode, or of
/// another format version, is removed when the folder is read.
final class OutboxFiles: Sendable {
    /// One queue for every outbox of the process, so that a service started over a folder reads it after the
    /// writes of a service before it over the same folder.
    static let queue = DispatchQueue(label: "Repose.Outbox", qos: .utility)

    let directory: URL

    init(directory: URL) {
        self.directory = directory
    }

    /// Writes `mutation`, replacing its earlier file, without waiting.
    func write(_ mutation: StoredMutation) {
        let directory = directory
        Self.queue.async {
            guard let data = try? JSONEncoder().encode(mutation) else { return }
            if !PrivateFiles.write(data, named: Self.fileName(mutation.key), in: directory) {
                ReposeLog.log(
                    .cache, "Outbox cannot write to \(directory.path); a queued mutation lives in memory only")
            }
        }
    }

    /// Removes the file of the mutation `key`, without waiting.
    func remove(_ key: String) {
        let file = directory.appendingPathComponent(Self.fileName(key))
        Self.queue.async { try? FileManager.default.removeItem(at: file) }
    }

    /// Reads every mutation in the folder, oldest first, and hands them to `completion` on the queue.
    func readAll(_ completion: @escaping @Sendable ([StoredMutation]) -> Void) {
        let directory = directory
        Self.queue.async {
            PrivateFiles.removeInterruptedWrites(in: directory)
            var found: [StoredMutation] = []
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for name in names where name.hasSuffix(".mutation") {
                let file = directory.appendingPathComponent(name)
                guard let data = try? Data(contentsOf: file),
                    let mutation = try? JSONDecoder().decode(StoredMutation.self, from: data),
                    mutation.version == StoredMutation.currentVersion, Self.fileName(mutation.key) == name
                else {
                    try? FileManager.default.removeItem(at: file)  // damaged or foreign: never sent
                    continue
                }
                found.append(mutation)
            }
            completion(found.sorted { ($0.mutation.createdAt, $0.sequence) < ($1.mutation.createdAt, $1.sequence) })
        }
    }

    /// A key as a file name: the key's letters, digits and dashes only, so that no key from a file can name a path.
    static func fileName(_ key: String) -> String {
        String(key.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) || $0 == "-" }.prefix(64))
            + ".mutation"
    }
}

/// One mutation as an outbox file holds it.
struct StoredMutation: Codable, Sendable {
    static let currentVersion = 1

    /// The file format's version, first in the file.
    var version = StoredMutation.currentVersion
    /// Orders mutations made at the same time.
    var sequence: Int
    var mutation: MutationData

    /// The mutation's idempotency key, which names its file.
    var key: String { mutation.idempotencyKey ?? "" }
}
