import Dispatch
import Foundation
import Repose

/// An in-memory cache that records its calls and whether each ran on its work queue.
final class RecordingCache: EntityCache, @unchecked Sendable {
    // Safe: `entries` and `log` are only touched under the lock.
    private let lock = NSLock()
    private var entries: [String: Entity<Any>] = [:]
    private var log: [String] = []
    private var offQueueCalls = 0
    private var mainThreadCalls = 0
    private let queueKey = DispatchSpecificKey<Bool>()
    let workQueue: DispatchQueue
    let name: String
    /// Keys are the resource's path; paths in this set get no key (they opt out).
    let excludedPaths: Set<String>

    init(name: String = "cache", excluding excludedPaths: Set<String> = []) {
        self.name = name
        self.excludedPaths = excludedPaths
        workQueue = DispatchQueue(label: "RecordingCache.\(name)")
        workQueue.setSpecific(key: queueKey, value: true)
    }

    @MainActor
    func key(for resource: Resource) -> String? {
        excludedPaths.contains(resource.url.path) ? nil : resource.url.path
    }

    func readEntity(forKey key: String) -> Entity<Any>? {
        record("read \(key)")
        let (entity, gate) = lock.withLock { (entries[key], readGate) }
        gate?.pass()
        return entity
    }

    /// Where each read waits, once it has taken its entity, while a test holds reads.
    private var readGate: ReadGate?

    /// Holds every read from now on once it has found what it will deliver, until the returned gate opens.
    func holdReads() -> ReadGate {
        let gate = ReadGate()
        lock.withLock { readGate = gate }
        return gate
    }

    func writeEntity(_ entity: Entity<Any>, forKey key: String) {
        record("write \(key)")
        lock.withLock { entries[key] = entity }
    }

    func removeEntity(forKey key: String) {
        record("remove \(key)")
        lock.withLock { entries[key] = nil }
    }

    func removeAllEntities() {
        record("removeAll")
        lock.withLock { entries.removeAll() }
    }

    /// Keys are paths on the harness's host, so the URL of an entry is that host plus its key.
    func removeEntities(forURLsMatching predicate: @escaping @Sendable (URL) -> Bool) {
        record("removeMatching")
        lock.withLock {
            entries = entries.filter { key, _ in
                URL(string: "https://zingle.frotz" + key).map { !predicate($0) } ?? true
            }
        }
    }

    /// Holds the work queue until the returned closure is called: whatever Repose queues meanwhile waits, in order.
    func blockWorkQueue() -> @Sendable () -> Void {
        let gate = DispatchSemaphore(value: 0)
        workQueue.async { gate.wait() }
        return { gate.signal() }
    }

    func refreshEntity(forKey key: String, confirmedAt timestamp: TimeInterval, headers: [String: String]) {
        record("touch \(key) \(Int(timestamp))")
        lock.withLock { entries[key]?.timestamp = timestamp }  // an app's cache: the time is all this one keeps
    }

    private func record(_ call: String) {
        let onQueue = DispatchQueue.getSpecific(key: queueKey) == true
        let onMainThread = Thread.isMainThread
        lock.withLock {
            log.append(call)
            if !onQueue { offQueueCalls += 1 }
            if onMainThread { mainThreadCalls += 1 }
        }
    }

    /// Puts an entity in the cache directly (as a previous launch would have).
    func seed(_ path: String, content: Any, contentType: String = "text/plain", timestamp: TimeInterval) {
        lock.withLock { entries[path] = Entity(content: content, contentType: contentType, timestamp: timestamp) }
    }

    func entry(_ path: String) -> Entity<Any>? {
        workQueue.sync {}  // let pending writes land
        return lock.withLock { entries[path] }
    }

    var calls: [String] {
        workQueue.sync {}
        return lock.withLock { log }
    }

    var callsOffQueue: Int { lock.withLock { offQueueCalls } }
    var callsOnMainThread: Int { lock.withLock { mainThreadCalls } }
}
