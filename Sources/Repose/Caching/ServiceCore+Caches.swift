import Foundation

extension ServiceCore {
    /// Every cache the service's configuration attaches to any stage, whether or not a resource has used it yet in
    /// this launch: entries from an earlier launch must go on log-out too.
    ///
    /// Each configuration closure runs on a blank configuration of its own, whatever its pattern, so that a cache a
    /// later closure removes for some URLs is still found. Instances are listed once.
    func everyCache() -> [any EntityCache] {
        var caches: [any EntityCache] = []
        var seen: Set<ObjectIdentifier> = []
        for entry in configurationEntries {
            var scratch = Configuration()
            entry.configurer(&scratch)
            for (_, cache) in scratch.pipeline.cachingStages {
                if type(of: cache) is AnyObject.Type {
                    guard seen.insert(ObjectIdentifier(cache as AnyObject)).inserted else { continue }
                }
                caches.append(cache)
            }
        }
        return caches
    }

    /// Queues the removal of every entry of every cache whose URL satisfies `predicate` (all of them for `nil`) on
    /// each cache's work queue, so that any read queued after this call finds them gone (rule K7).
    func removeCachedEntities(forURLsMatching predicate: ((URL) -> Bool)?) {
        // The matchers Repose builds from patterns are immutable, so running one on a cache's queue is safe; an
        // app's own predicate is documented to run there.
        let matcher = predicate.map(UncheckedTransfer.init)
        for cache in everyCache() {
            cache.workQueue.async {
                if let matcher {
                    cache.removeEntities(forURLsMatching: { matcher.value($0) })
                } else {
                    cache.removeAllEntities()
                }
            }
        }
    }
}
