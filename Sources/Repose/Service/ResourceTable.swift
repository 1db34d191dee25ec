import Foundation

/// The service's resources by URL: one instance per URL for as long as anything uses it, each entry holding the
/// table's own books about its resource (how it is held, whether it may have become unused, when it polls next).
///
/// Resources in use (observed, or with requests in flight) are held strongly, and so are unused ones up to
/// `countLimit`. Past the limit an unused resource is let go: dropped if nothing else holds it, else held weakly, so
/// that one the app still holds keeps its identity (rule D13) and is held strongly again once used (rule B20).
///
/// Finding unused resources must not cost more the more resources there are, so the table looks at few of them:
/// - A resource that may have become unused (a new one, one whose last request ended or whose observers were
///   removed) is noted as a candidate, and each insertion past the limit looks at the candidates only.
/// - An observer whose owner died unannounced makes a resource unused without telling it: a sweep finds those,
///   looking at one resource every ``insertsPerSweptResource`` insertions past the limit, round the table. A flush
///   looks at every resource.
/// - Dead weak entries are purged once there are twice as many as after the last purge.
/// - Paths looked up a second time map straight to their key, so looking up a known path builds no URL.
///
/// A class, not a struct: examining a resource sweeps its observers, which may call the app, which may look up
/// resources. No access to the dictionaries spans such a call (examining reads the resource out first), so they
/// skip the dynamic exclusivity checks, which were a sizeable part of looking up a known path.
@MainActor
final class ResourceTable {
    /// One resource and the table's books about it, in three words.
    struct Entry {
        /// Strongly while in use or under the limit; weakly once demoted, or after the app dropped the service.
        var holding: Holding
        /// Whether ``ResourceTable/candidates`` lists this entry, or it is being examined.
        var isCandidate = false
        /// When the resource polls next (``Configuration/refreshInterval``), while it waits to; NaN otherwise,
        /// rather than an optional, whose flag would make the entry a word longer.
        var pollTime = TimeInterval.nan

        var nextPoll: TimeInterval? { pollTime.isNaN ? nil : pollTime }
    }

    enum Holding {
        case strong(Resource)
        case weak(WeakResource)
    }

    @exclusivity(unchecked) private var entries: [ResourceKey: Entry] = [:]
    @exclusivity(unchecked) private var keysByPath: [String: ResourceKey] = [:]
    /// Keys of strongly held resources that may have become unused since they were last looked at.
    private var candidates: [ResourceKey] = []
    /// The keys the sweep has still to look at in this round; refilled from the table when it runs out.
    private var sweepQueue: [ResourceKey] = []
    private var insertsSinceSweep = 0
    private(set) var stronglyHeldCount = 0
    private var purgeThreshold: Int
    /// How many times a resource was examined for use, and how many of those were the sweep's: for tests.
    private(set) var examinedCount = 0
    private(set) var sweptCount = 0

    /// The sweep looks at one resource every this many insertions past the limit.
    static let insertsPerSweptResource = 8

    /// Whether resources may be held strongly: true while the app holds the ``Service``. Once it drops it, every
    /// resource is held weakly, so that resources keep the service's core alive and never the other way round.
    var retainsResources = true

    /// How many resources are held strongly before unused ones are let go.
    var countLimit: Int {
        didSet { purgeThreshold = countLimit }
    }

    init(countLimit: Int) {
        self.countLimit = countLimit
        purgeThreshold = countLimit
    }

    // MARK: Lookup

    /// The resource for `key`, if one is alive. A weakly held one found here is in use again: held strongly.
    func resource(forKey key: ResourceKey) -> Resource? {
        switch entries[key]?.holding {
        case .strong(let resource): return resource
        case .weak(let weakly):
            guard let resource = weakly.resource else { return nil }
            if retainsResources {
                hold(resource, forKey: key)
                noteMaybeUnused(resource, key: key)
            }
            return resource
        case nil: return nil
        }
    }

    /// The resource for a path under the service's base URL, if that path was seen before and its resource lives.
    func resource(forPath path: String) -> Resource? {
        guard let key = keysByPath[path] else { return nil }
        return resource(forKey: key)
    }

    /// Remembers that `path` under the service's base URL has the key `key`. Bounded by the live resources: the
    /// map is cleared whenever it outgrows them (keeping its capacity, so new paths do not pay for regrowing it).
    func remember(path: String, key: ResourceKey) {
        if keysByPath.count >= 2 * max(countLimit, entries.count) {
            keysByPath.removeAll(keepingCapacity: true)
        }
        keysByPath[path] = key
    }

    /// Adds a resource just made; the caller is about to use it.
    func insert(_ resource: Resource, forKey key: ResourceKey) {
        guard retainsResources else {
            entries.updateValue(Entry(holding: .weak(WeakResource(resource))), forKey: key)
            return
        }
        if stronglyHeldCount >= countLimit {
            demoteUnusedCandidates()
            sweepStep()
            if entries.count - stronglyHeldCount > purgeThreshold { purgeDead() }
        }
        // The caller found no live resource for `key`: an entry replaced here is a dead weak one. A new resource
        // may go unused: a candidate from the start.
        entries.updateValue(Entry(holding: .strong(resource), isCandidate: true), forKey: key)
        stronglyHeldCount += 1
        candidates.append(key)
    }

    // MARK: Books kept for resources

    /// Holds `resource` strongly again if it was demoted: it gained an observer or a request (rules B20, D13).
    func markInUse(_ resource: Resource) {
        // Usually nothing is held weakly, and nothing need be looked up.
        guard retainsResources, stronglyHeldCount < entries.count else { return }
        let key = Self.key(of: resource)
        guard case .weak(let weakly)? = entries[key]?.holding, weakly.resource === resource else { return }
        hold(resource, forKey: key)
    }

    /// Notes that `resource` may have stopped being used, so that the next insertion past the limit looks at it.
    func noteMaybeUnused(_ resource: Resource) {
        noteMaybeUnused(resource, key: Self.key(of: resource))
    }

    /// When `resource` polls next, if it waits to.
    func nextPoll(of resource: Resource) -> TimeInterval? {
        entries[Self.key(of: resource)]?.nextPoll
    }

    func setNextPoll(_ time: TimeInterval?, of resource: Resource) {
        change(Self.key(of: resource)) { $0.pollTime = time ?? .nan }
    }

    // MARK: Letting go

    /// Demotes every unused resource and forgets dead ones.
    func flushUnused() {
        forgetCandidates()
        // Keys first: changing the table while walking it would copy it.
        for key in Array(entries.keys) {
            guard case .strong? = entries[key]?.holding else { continue }
            change(key) { $0.isCandidate = true }
            examine(key)
        }
        purgeDead()
    }

    /// Holds every resource weakly from now on, used or not: the service that kept them is gone.
    func releaseAll() {
        forgetCandidates()
        retainsResources = false
        entries = entries.mapValues { entry in
            guard case .strong(let resource) = entry.holding else { return entry }
            return Entry(holding: .weak(WeakResource(resource)), pollTime: entry.pollTime)
        }
        stronglyHeldCount = 0
        purgeDead()
    }

    /// Every live resource, for wiping, invalidating and the inspector.
    var allResources: [Resource] {
        entries.values.compactMap { entry in
            switch entry.holding {
            case .strong(let resource): resource
            case .weak(let weakly): weakly.resource
            }
        }
    }

    /// How many entries are weak, dead ones included until the next purge. For tests.
    var weakEntryCount: Int { entries.count - stronglyHeldCount }

    /// How many paths map to their keys. For tests.
    var knownPathCount: Int { keysByPath.count }

    // MARK: Private

    /// The key a resource was filed under: its URL's text.
    private static func key(of resource: Resource) -> ResourceKey {
        ResourceKey(resource.url.absoluteString)
    }

    /// Changes the entry at `key`, if there is one. Read and written whole: changing it in place, through the
    /// dictionary's subscript, allocated three times per call.
    private func change(_ key: ResourceKey, _ body: (inout Entry) -> Void) {
        guard var entry = entries[key] else { return }
        body(&entry)
        entries.updateValue(entry, forKey: key)
    }

    private func hold(_ resource: Resource, forKey key: ResourceKey) {
        change(key) { $0.holding = .strong(resource) }
        stronglyHeldCount += 1
    }

    private func noteMaybeUnused(_ resource: Resource, key: ResourceKey) {
        guard retainsResources, let entry = entries[key], !entry.isCandidate, case .strong(let held) = entry.holding,
            held === resource
        else { return }
        change(key) { $0.isCandidate = true }
        candidates.append(key)
    }

    /// Looks at the candidates only: the resources that can have become unused without owners dying.
    private func demoteUnusedCandidates() {
        while let key = candidates.popLast() {
            guard entries[key]?.isCandidate == true else { continue }
            examine(key)
        }
    }

    /// One step of the sweep for resources whose observers' owners died unannounced, which nothing notes: every
    /// few insertions past the limit, the next key of this round. A step at a time rather than a pass over every
    /// resource now and then, so that each insertion costs about the same.
    private func sweepStep() {
        insertsSinceSweep += 1
        guard insertsSinceSweep >= Self.insertsPerSweptResource else { return }
        insertsSinceSweep = 0
        if sweepQueue.isEmpty { sweepQueue = Array(entries.keys) }
        // Candidates are the candidate pass's to look at.
        guard let key = sweepQueue.popLast(), case .strong? = entries[key]?.holding, entries[key]?.isCandidate == false
        else { return }
        sweptCount += 1
        change(key) { $0.isCandidate = true }
        examine(key)
    }

    /// Demotes the strongly held resource at `key` if it is unused: dropped if nothing else holds it (no weak
    /// reference, no entry to purge later), else held weakly. Its entry is marked as a candidate meanwhile, so
    /// that sweeping its observers (which may call the app) does not note it again; it is no candidate after.
    private func examine(_ key: ResourceKey) {
        // One lookup: the entry is changed in place through its index, never found again by its key.
        guard let index = entries.index(forKey: key), case .strong(var resource) = entries.values[index].holding
        else { return }
        examinedCount &+= 1
        guard !resource.isInUse else {
            entries.values[index].isCandidate = false
            return
        }
        entries.values[index].holding = .weak(WeakResource(nil))  // the table's strong reference goes
        stronglyHeldCount -= 1
        // `resource` is now the only reference unless something else holds it.
        if isKnownUniquelyReferenced(&resource) {
            entries.remove(at: index)
        } else {
            entries.values[index] = Entry(
                holding: .weak(WeakResource(resource)), pollTime: entries.values[index].pollTime)
        }
    }

    private func forgetCandidates() {
        for key in candidates { change(key) { $0.isCandidate = false } }
        candidates.removeAll(keepingCapacity: true)
    }

    private func purgeDead() {
        entries = entries.filter { _, entry in
            if case .weak(let weakly) = entry.holding { weakly.resource != nil } else { true }
        }
        purgeThreshold = max(countLimit, 2 * (entries.count - stronglyHeldCount))
        keysByPath.removeAll()
    }
}

/// A resource's URL text with its hash, computed once: the table compares and rehashes keys as it grows, and with
/// plain strings each rehash read every URL's text again.
struct ResourceKey: Hashable {
    let text: String
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

/// A weak reference to a resource, for books that must not keep it alive.
struct WeakResource {
    weak var resource: Resource?

    init(_ resource: Resource?) {
        self.resource = resource
    }
}
