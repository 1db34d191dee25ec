/// The service's table of resources by URL: one instance per URL for as long as anything uses it.
///
/// Resources in use (observed, or with requests in flight) are held strongly. Unused ones are demoted to weak
/// references by a flush, so a resource the app still holds keeps its identity while forgotten ones are freed.
///
/// Every cost is amortised so that it does not grow with the number of live resources:
/// - A flush runs when the strongly held count passes a threshold; the threshold then moves to twice the count
///   that survived, so that an app holding many observed resources does not rescan them on every lookup.
/// - Dead weak entries are purged the same way: only once the weak table has doubled since the last purge, so an
///   app holding many unobserved resources does not rebuild that table every `countLimit` lookups.
/// - Paths already seen map straight to their canonical key, so looking up a known path builds no URL.
@MainActor
struct ResourceCache {
    private var strong: [ResourceKey: Resource] = [:]
    private var weak: [ResourceKey: WeakResource] = [:]
    private var keysByPath: [String: ResourceKey] = [:]
    private var flushThreshold: Int
    private var purgeThreshold: Int

    /// Whether resources may be held strongly: true while the app holds the ``Service``. Once it drops it, every
    /// resource is held weakly, so that resources keep the service's core alive and never the other way round.
    var retainsResources = true

    /// How many resources are held strongly before unused ones are released.
    var countLimit: Int {
        didSet {
            flushThreshold = countLimit
            purgeThreshold = countLimit
        }
    }

    init(countLimit: Int) {
        self.countLimit = countLimit
        self.flushThreshold = countLimit
        self.purgeThreshold = countLimit
    }

    /// The resource for `key`, if one is alive.
    mutating func resource(forKey key: ResourceKey) -> Resource? {
        if let resource = strong[key] { return resource }
        // Without weak entries (the usual case: unused resources nothing holds are dropped, not demoted), a new
        // key costs one lookup instead of two.
        guard !weak.isEmpty, let resource = weak[key]?.resource else { return nil }
        guard retainsResources else { return resource }
        weak[key] = nil
        strong[key] = resource
        resource.isHeldWeaklyByService = false
        return resource
    }

    /// Holds a demoted resource strongly again because it is in use once more (observed, or requesting), so that
    /// it stays alive even if the app lets go of it.
    mutating func promote(_ resource: Resource) {
        guard retainsResources else { return }
        resource.isHeldWeaklyByService = false
        let key = ResourceKey(resource.url.absoluteString)
        guard strong[key] == nil, weak[key]?.resource === resource else { return }
        weak[key] = nil
        strong[key] = resource
    }

    /// The resource for a path under the service's base URL, if that path was seen before and its resource is
    /// alive.
    mutating func resource(forPath path: String) -> Resource? {
        guard let key = keysByPath[path] else { return nil }
        return resource(forKey: key)
    }

    /// Remembers that `path` under the service's base URL has the canonical key `key`. The table is bounded by
    /// the number of live resources: it is cleared whenever it outgrows them, and refills on later lookups.
    mutating func remember(path: String, key: ResourceKey) {
        if keysByPath.count >= 2 * max(countLimit, strong.count + weak.count) {
            // Keeping the capacity: the table grows back to this size, and regrowing it from empty cost 5 % of a new
            // path's first lookup in resizes.
            keysByPath.removeAll(keepingCapacity: true)
        }
        keysByPath[path] = key
    }

    mutating func insert(_ resource: Resource, forKey key: ResourceKey) {
        guard retainsResources else {
            weak[key] = WeakResource(resource)
            resource.isHeldWeaklyByService = true
            return
        }
        strong[key] = resource
        if strong.count > flushThreshold {
            demoteUnused()
            if weak.count > purgeThreshold { purgeDead() }
        }
    }

    /// Demotes every unused resource to a weak reference and forgets dead ones.
    mutating func flushUnused() {
        demoteUnused()
        purgeDead()
    }

    /// Holds every resource weakly from now on, used or not: the service that kept them is gone.
    mutating func releaseAll() {
        retainsResources = false
        for (key, resource) in strong {
            weak[key] = WeakResource(resource)
            resource.isHeldWeaklyByService = true
        }
        strong.removeAll()
        purgeDead()
    }

    private mutating func demoteUnused() {
        // Keys first, then removals: removing while iterating would copy the whole table, and the iteration's copy
        // would hold every resource, so none would look unreferenced.
        var unused: [ResourceKey] = []
        for (key, resource) in strong where !resource.isInUse {
            unused.append(key)
        }
        for key in unused {
            guard var resource = strong.removeValue(forKey: key) else { continue }
            // A resource nothing else holds goes now, as the next purge would take it: no weak reference (a side
            // table allocation per resource), no weak entry to purge later. A new path's first lookup whose resource
            // the app drops: 1.6 µs and 5 mallocs with the weak entry, 1.25 µs and 4 without (main thread, 2 cores).
            if isKnownUniquelyReferenced(&resource) { continue }
            weak[key] = WeakResource(resource)
            resource.isHeldWeaklyByService = true
        }
        flushThreshold = max(countLimit, strong.count * 2)
    }

    private mutating func purgeDead() {
        weak = weak.filter { $0.value.resource != nil }
        purgeThreshold = max(countLimit, weak.count * 2)
        keysByPath.removeAll()
    }

    /// Every live resource, for operations such as wiping or invalidating configuration.
    var allResources: [Resource] {
        Array(strong.values) + weak.values.compactMap(\.resource)
    }

    var stronglyHeldCount: Int { strong.count }

    /// How many entries the weak table holds, dead ones included until the next purge.
    var weakEntryCount: Int { weak.count }

    /// How many paths map to their canonical keys.
    var knownPathCount: Int { keysByPath.count }
}

/// A resource's canonical URL text with its hash, computed once.
///
/// The tables compare and rehash keys constantly as they grow: with plain strings, every probe of a bucket compared
/// the URL text in the key's own heap storage (a cache miss once the table outgrows the cache) and every resize
/// hashed every URL again. Creating and retaining resources took 2.1 µs each at 1,000 and 6.1–7.1 µs at 1,000,000
/// (main thread, 2-core VM); see Docs/Performance.md for the figures with this key.
struct ResourceKey: Hashable {
    let text: String
    private let hash: Int

    init(_ text: String) {
        self.text = text
        hash = text.hashValue
    }

    static func == (lhs: ResourceKey, rhs: ResourceKey) -> Bool {
        lhs.hash == rhs.hash && lhs.text == rhs.text
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(hash)
    }
}

struct WeakResource {
    weak var resource: Resource?

    init(_ resource: Resource) {
        self.resource = resource
    }
}
