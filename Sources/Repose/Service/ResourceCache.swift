/// The service's table of resources by URL: one instance per URL for as long as anything uses it.
///
/// Resources in use (observed, or with requests in flight) are held strongly. Unused ones are demoted to weak
/// references once more than `countLimit` are held, so a resource the app still holds keeps its identity while
/// forgotten ones are freed.
///
/// No cost grows with the number of live resources:
/// - Unused resources are found without looking at used ones. A resource that may have become unused (a new one,
///   one whose last request completed or whose observers were removed) is noted as a candidate, and each insertion
///   past the limit looks only at the candidates. Looking again at every resource on every pass cost a cache miss
///   per live resource each time, so each new resource cost more the more there were.
/// - Only an observer whose owner died unannounced makes a resource unused without telling it. A sweep finds
///   those, looking at one resource every eight insertions past the limit, round the table (and a flush looks at
///   all of them).
/// - Dead weak entries are purged only once the weak table has doubled since the last purge, so an app holding
///   many unobserved resources does not rebuild that table every `countLimit` lookups.
/// - Paths looked up a second time map straight to their canonical key, so looking up a known path builds no URL.
///
/// A class, not a struct: examining a resource sweeps its observers, which may call the app, which may look up
/// resources; a struct's mutating method would hold exclusive access to the whole table meanwhile, and trap. No
/// access to a table spans a call out (each pass iterates a copy, and takes candidates one at a time), so the
/// tables skip the dynamic exclusivity checks, a sizeable part of a known path's lookup.
@MainActor
final class ResourceCache {
    @exclusivity(unchecked) private var strong = ShardedTable<Resource>()
    @exclusivity(unchecked) private var weak: [ResourceKey: WeakResource] = [:]
    @exclusivity(unchecked) private var keysByPath: [String: ResourceKey] = [:]
    /// Strongly held resources that may have become unused since they were last looked at, each once (its
    /// `isUnusedCandidate` says so).
    @exclusivity(unchecked) private var candidates: [Resource] = []
    private var purgeThreshold: Int
    /// Where the sweep for resources whose observers' owners died goes on from, and how many insertions past the
    /// limit have passed since its last step.
    private var sweepCursor = ShardedTable<Resource>.Cursor()
    private var insertsSinceSweep = 0
    /// How many times a resource was examined for use, and how many of those were the sweep's: for tests of the
    /// amortisation.
    private(set) var examinedCount = 0
    private(set) var sweptCount = 0

    /// The sweep looks at one resource every this many insertions past the limit.
    static let insertsPerSweptResource = 8

    /// Whether resources may be held strongly: true while the app holds the ``Service``. Once it drops it, every
    /// resource is held weakly, so that resources keep the service's core alive and never the other way round.
    var retainsResources = true

    /// How many resources are held strongly before unused ones are released.
    var countLimit: Int {
        didSet {
            purgeThreshold = countLimit
        }
    }

    init(countLimit: Int) {
        self.countLimit = countLimit
        self.purgeThreshold = countLimit
    }

    /// The resource for `key`, if one is alive.
    func resource(forKey key: ResourceKey) -> Resource? {
        if let resource = strong[key] { return resource }
        // Without weak entries (the usual case: unused resources nothing holds are dropped, not demoted), a new
        // key costs one lookup instead of two.
        guard !weak.isEmpty, let resource = weak[key]?.resource else { return nil }
        guard retainsResources else { return resource }
        weak[key] = nil
        strong[key] = resource
        resource.isHeldWeaklyByService = false
        noteMaybeUnused(resource)
        return resource
    }

    /// Holds a demoted resource strongly again because it is in use once more (observed, or requesting), so that
    /// it stays alive even if the app lets go of it.
    func promote(_ resource: Resource) {
        guard retainsResources else { return }
        resource.isHeldWeaklyByService = false
        let key = ResourceKey(resource.url.absoluteString)
        guard strong[key] == nil, weak[key]?.resource === resource else { return }
        weak[key] = nil
        strong[key] = resource
    }

    /// The resource for a path under the service's base URL, if that path was seen before and its resource is
    /// alive.
    func resource(forPath path: String) -> Resource? {
        guard let key = keysByPath[path] else { return nil }
        return resource(forKey: key)
    }

    /// Remembers that `path` under the service's base URL has the canonical key `key`. The table is bounded by
    /// the number of live resources: it is cleared whenever it outgrows them, and refills on later lookups.
    func remember(path: String, key: ResourceKey) {
        if keysByPath.count >= 2 * max(countLimit, strong.count + weak.count) {
            // Keeping the capacity: the table grows back to this size, and regrowing it from empty would put resizes
            // back on new paths' first lookups.
            keysByPath.removeAll(keepingCapacity: true)
        }
        keysByPath[path] = key
    }

    func insert(_ resource: Resource, forKey key: ResourceKey) {
        guard retainsResources else {
            weak[key] = WeakResource(resource)
            resource.isHeldWeaklyByService = true
            return
        }
        // This runs before the new resource joins the table: the caller is about to use it.
        if strong.count >= countLimit {
            demoteUnusedCandidates()
            sweepStep()
            if weak.count > purgeThreshold { purgeDead() }
        }
        strong[key] = resource
        noteMaybeUnused(resource)
    }

    /// Notes that `resource` may have stopped being used, so that the next insertion past the limit looks at it.
    func noteMaybeUnused(_ resource: Resource) {
        guard retainsResources, !resource.isUnusedCandidate, !resource.isHeldWeaklyByService else { return }
        resource.isUnusedCandidate = true
        candidates.append(resource)
    }

    /// Demotes every unused resource to a weak reference and forgets dead ones.
    func flushUnused() {
        demoteUnused()
        purgeDead()
    }

    /// Holds every resource weakly from now on, used or not: the service that kept them is gone.
    func releaseAll() {
        forgetCandidates()
        retainsResources = false
        for (key, resource) in strong.entries {
            weak[key] = WeakResource(resource)
            resource.isHeldWeaklyByService = true
        }
        strong.removeAll()
        purgeDead()
    }

    /// Looks at the candidates only, which are the resources that can have become unused without dying owners.
    private func demoteUnusedCandidates() {
        while var candidate = candidates.popLast() {
            guard !candidate.isHeldWeaklyByService else { continue }
            demoteIfUnused(&candidate)
        }
    }

    /// One step of the sweep that finds resources whose observers' owners died unannounced, which nothing notes as
    /// candidates: every few insertions past the limit, the next resource in the table, round and round. A step at
    /// a time rather than a pass over every resource now and then: a pass's cost per new resource depended on where
    /// the table's size fell between passes (and in a large table each resource examined is a cache miss), a
    /// step's does not.
    private func sweepStep() {
        insertsSinceSweep += 1
        guard insertsSinceSweep >= Self.insertsPerSweptResource else { return }
        insertsSinceSweep = 0
        // Candidates are the candidate pass's to look at.
        guard var resource = strong.value(after: &sweepCursor), !resource.isUnusedCandidate else { return }
        sweptCount += 1
        demoteIfUnused(&resource)
    }

    /// Demotes `resource`, held strongly, if it is unused. Its key is computed only then: most resources examined
    /// are in use.
    private func demoteIfUnused(_ resource: inout Resource) {
        guard !isInUse(resource) else { return }
        let key = ResourceKey(resource.url.absoluteString)
        guard strong.remove(resource, forKey: key) else { return }
        demote(&resource, forKey: key)
    }

    /// Looks at every strongly held resource, for a flush.
    private func demoteUnused() {
        // The candidates' references go first, so that a resource nothing else holds is seen as such.
        forgetCandidates()
        // Keys first, then removals: removing while iterating would copy the whole table, and the iteration's copy
        // would hold every resource, so none would look unreferenced.
        var unused: [ResourceKey] = []
        for (key, resource) in strong.entries where !isInUse(resource) {
            unused.append(key)
        }
        for key in unused {
            guard var resource = strong.removeValue(forKey: key) else { continue }
            demote(&resource, forKey: key)
        }
    }

    /// Holds `resource`, just removed from the strong table, weakly; or lets it go if nothing else holds it.
    private func demote(_ resource: inout Resource, forKey key: ResourceKey) {
        // A resource nothing else holds goes now, as the next purge would take it: no weak reference (a side table
        // allocation per resource), no weak entry to purge later. That keeps the lookup of a path the app asks for
        // once and drops (a list's row, say) to the allocations the resource itself needs.
        if isKnownUniquelyReferenced(&resource) { return }
        weak[key] = WeakResource(resource)
        resource.isHeldWeaklyByService = true
    }

    /// Whether `resource` is in use, and no longer a candidate. Its mark stays set while it is examined, so that
    /// sweeping its observers does not note it again.
    private func isInUse(_ resource: Resource) -> Bool {
        examinedCount &+= 1
        resource.isUnusedCandidate = true
        defer { resource.isUnusedCandidate = false }
        return resource.isInUse
    }

    private func forgetCandidates() {
        for candidate in candidates {
            candidate.isUnusedCandidate = false
        }
        candidates.removeAll(keepingCapacity: true)
    }

    private func purgeDead() {
        weak = weak.filter { $0.value.resource != nil }
        purgeThreshold = max(countLimit, weak.count * 2)
        keysByPath.removeAll()
    }

    /// Every live resource, for operations such as wiping or invalidating configuration.
    var allResources: [Resource] {
        strong.entries.map(\.value) + weak.values.compactMap(\.resource)
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
/// hashed every URL again, so each new resource cost several times more in a table of a million than of a thousand
/// (Docs/Performance.md has the figures, before and with this key).
struct ResourceKey: Hashable {
    let text: String
    /// The text's hash, which also picks a ``ShardedTable`` shard.
    let textHash: Int

    init(_ text: String) {
        self.text = text
        textHash = text.hashValue
    }

    static func == (lhs: ResourceKey, rhs: ResourceKey) -> Bool {
        lhs.textHash == rhs.textHash && lhs.text == rhs.text
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(textHash)
    }
}

struct WeakResource {
    weak var resource: Resource?

    init(_ resource: Resource) {
        self.resource = resource
    }
}
