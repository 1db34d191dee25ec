import Dispatch
import Foundation

/// A place to keep entities across launches, so that a resource can show its last known data before (or
/// without) a network round trip.
///
/// Attach a cache to a pipeline stage with `PipelineStage.cacheUsing(_:)`. After every successful response the
/// stage's output is written to it; when a resource is first used, the cache is read, and a hit arrives as
/// `newData(.cache)`. A cache at the `rawData` stage stores bytes (easy to persist, parsed again on read); a cache at
/// a later stage stores parsed content and skips that work on read.
///
/// Repose calls every method but ``key(for:)`` only on ``workQueue``, never on the main actor: it writes after each
/// successful response, refreshes the timestamp after a 304, and removes the entry when the resource is wiped or
/// overridden locally, and empties it when the app logs out (`Service.wipeResources()`), so that what the cache holds
/// never contradicts what the app was shown. The queue is serial, so a removal always lands before any later read.
/// `FileEntityCache`, in the `ReposeStorage` module, is a ready-made implementation.
public protocol EntityCache: Sendable {
    /// The key under which `resource`'s entity is stored, or `nil` to leave the resource out of this cache.
    @MainActor
    func key(for resource: Resource) -> String?

    /// The key under which the pipeline stage `stage` stores `resource`'s entity; Repose asks this one. The default
    /// is ``key(for:)``: a cache attached to two stages then keeps one entry per resource, and should not be.
    @MainActor
    func key(for resource: Resource, at stage: PipelineStageKey) -> String?

    /// From now on, keeps the entries of the account `partition` apart from every other account's
    /// (`Service.partition`). Repose calls it on the main actor, before any key of the new account is asked for.
    /// The default forgets every entity (on ``workQueue``): a cache that cannot keep accounts apart must not show
    /// one account's data to the next.
    @MainActor
    func switchPartition(to partition: String?)

    /// The stored entity, or `nil` for a miss. Return `nil` for anything unreadable: it is treated as a miss.
    func readEntity(forKey key: String) -> Entity<Any>?

    /// Stores `entity`, replacing what was there.
    func writeEntity(_ entity: Entity<Any>, forKey key: String)

    /// Forgets the entity for `key`.
    func removeEntity(forKey key: String)

    /// Forgets every stored entity. Repose calls it when the app logs a user out with `Service.wipeResources()`, so
    /// a cache must really empty itself here: there is no default, because one that did nothing would leave the
    /// previous user's data for the next.
    func removeAllEntities()

    /// Forgets the entity of every resource whose URL satisfies `predicate`, including resources no longer in memory
    /// (`Service.wipeResources(matching:)`). The default removes every entity: a cache that does not know which URL
    /// an entry belongs to loses more than it must, never less.
    func removeEntities(forURLsMatching predicate: @escaping @Sendable (URL) -> Bool)

    /// Records that the stored entity for `key` was confirmed current at `timestamp` by a 304 whose `headers` replace
    /// the stored ones, so that after a relaunch the entry is neither taken for stale nor kept fresh by the lifetime
    /// the 304 replaced. `headers` holds the confirmed entity's headers, names lowercased; fields that describe the
    /// stored body (`Content-Type`, `Content-Encoding`, `Content-Length`) are not taken from them. The default reads
    /// the entity and writes it back; a cache that can change this metadata alone should do that instead.
    func refreshEntity(forKey key: String, confirmedAt timestamp: TimeInterval, headers: [String: String])

    /// The serial queue on which Repose calls the methods above. The default is one queue shared by every cache
    /// that does not name its own.
    var workQueue: DispatchQueue { get }
}

extension EntityCache {
    @MainActor
    public func key(for resource: Resource, at stage: PipelineStageKey) -> String? {
        key(for: resource)
    }

    @MainActor
    public func switchPartition(to partition: String?) {
        workQueue.async { [self] in removeAllEntities() }
    }

    public func removeEntities(forURLsMatching predicate: @escaping @Sendable (URL) -> Bool) {
        removeAllEntities()
    }

    public func refreshEntity(forKey key: String, confirmedAt timestamp: TimeInterval, headers: [String: String]) {
        guard let stored = readEntity(forKey: key) else { return }
        var entity = stored.revalidated(by: headers)
        entity.timestamp = timestamp
        writeEntity(entity, forKey: key)
    }

    public var workQueue: DispatchQueue { sharedEntityCacheQueue }
}

/// The work queue of caches that do not have their own.
private let sharedEntityCacheQueue = DispatchQueue(label: "Repose.EntityCache", qos: .utility)

/// One cache of one pipeline stage, with the key of one resource in it.
struct CacheTarget: Sendable {
    let stage: PipelineStageKey
    let cache: any EntityCache
    let key: String

    /// Writes on the cache's queue, without waiting.
    func write(_ entity: Entity<Any>) {
        let transfer = UncheckedTransfer(entity)
        cache.workQueue.async { [cache, key] in cache.writeEntity(transfer.value, forKey: key) }
    }

    /// Refreshes the stored timestamp and headers on the cache's queue, without waiting.
    func refresh(confirmedAt timestamp: TimeInterval, headers: [String: String]) {
        cache.workQueue.async { [cache, key] in
            cache.refreshEntity(forKey: key, confirmedAt: timestamp, headers: headers)
        }
    }

    /// Removes the stored entity on the cache's queue, without waiting; reads queued later see it gone.
    func remove() {
        cache.workQueue.async { [cache, key] in cache.removeEntity(forKey: key) }
    }

    /// Reads on the cache's queue, waiting for the answer. Never called on the main actor.
    func read() -> Entity<Any>? {
        cache.workQueue.sync { [cache, key] in UncheckedTransfer(cache.readEntity(forKey: key)) }.value
    }
}

extension PipelineStage {
    /// Stores this stage's output in `cache` after every successful response, and reads it back when a resource is
    /// first used. Replaces any cache the stage had.
    ///
    /// ```swift
    /// service.configure {
    ///     $0.pipeline[.rawData].cacheUsing(FileEntityCache(directory: cachesFolder))
    /// }
    /// ```
    public mutating func cacheUsing(_ cache: any EntityCache) {
        self.cache = cache
    }

    /// Removes this stage's cache.
    public mutating func doNotCache() {
        cache = nil
    }
}

extension Pipeline {
    /// The caches of this pipeline with `resource`'s keys; resources a cache has no key for are left out of it
    /// (rule H14).
    @MainActor
    func cacheTargets(for resource: Resource) -> [CacheTarget] {
        cachingStages.compactMap { stage in
            stage.cache.key(for: resource, at: stage.key).map {
                CacheTarget(stage: stage.key, cache: stage.cache, key: $0)
            }
        }
    }

    /// The newest usable cached entity: caches of later stages are tried first (rule H8); a hit runs through the
    /// stages after its own (H9), and one that fails there is ignored in favour of earlier caches (H10).
    func readCache(_ targets: [CacheTarget]) -> Entity<Any>? {
        for target in targets.reversed() {
            guard let cached = target.read() else { continue }
            if case .success(let entity) = process(.success(cached), after: target.stage) {
                return entity
            }
        }
        return nil
    }
}
