import Dispatch
import Foundation
import Repose

/// The work queue of one cache folder, shared by every ``FileEntityCache`` of the process over that folder.
///
/// A configuration closure that makes its cache (`cacheUsing(FileEntityCache(directory: folder))`) makes a new
/// instance each time the configuration is built, and log-out and `Service.flush()` make more. With one queue per
/// folder, a removal queued through any of them still lands before every later read (rule K7), and a flush through
/// any of them waits for every write (rule T11).
final class CacheFolderQueue: Sendable {
    let queue = DispatchQueue(label: "Repose.FileEntityCache", qos: .utility)

    private static let lock = NSLock()
    /// Safe (`nonisolated(unsafe)`): only touched under `lock`.
    nonisolated(unsafe) private static var queues: [String: Weak] = [:]
    private struct Weak { weak var folder: CacheFolderQueue? }

    private init() {}

    /// The queue of `directory`, made if no cache of the process holds one.
    static func of(_ directory: URL) -> CacheFolderQueue {
        let path = directory.standardizedFileURL.path
        return lock.withLock {
            if let folder = queues[path]?.folder { return folder }
            queues = queues.filter { $0.value.folder != nil }
            let folder = CacheFolderQueue()
            queues[path] = Weak(folder: folder)
            return folder
        }
    }
}
