/// The service's table of resources by URL: one instance per URL for as long as anything uses it.
///
/// Resources in use (observed, or with requests in flight) are held strongly. Unused ones are demoted to weak
/// references by a flush, so a resource the app still holds keeps its identity while forgotten ones are freed.
/// A flush runs when the strongly held count passes a threshold; the threshold then moves to twice the count
/// that survived, so that an app holding many observed resources does not rescan them on every lookup.
@MainActor
struct ResourceCache {
    private var strong: [String: Resource] = [:]
    private var weak: [String: WeakResource] = [:]
    private var flushThreshold: Int

    /// How many resources are held strongly before unused ones are released.
    var countLimit: Int {
        didSet { flushThreshold = countLimit }
    }

    init(countLimit: Int) {
        self.countLimit = countLimit
        self.flushThreshold = countLimit
    }

    /// The resource for `key`, if one is alive.
    mutating func resource(forKey key: String) -> Resource? {
        if let resource = strong[key] { return resource }
        guard let resource = weak[key]?.resource else { return nil }
        weak[key] = nil
        strong[key] = resource
        return resource
    }

    mutating func insert(_ resource: Resource, forKey key: String) {
        strong[key] = resource
        if strong.count > flushThreshold {
            flushUnused()
        }
    }

    /// Demotes every unused resource to a weak reference and forgets dead ones.
    mutating func flushUnused() {
        for (key, resource) in strong where !resource.isInUse {
            strong[key] = nil
            weak[key] = WeakResource(resource)
        }
        weak = weak.filter { $0.value.resource != nil }
        flushThreshold = max(countLimit, strong.count * 2)
    }

    /// Every live resource, for operations such as wiping or invalidating configuration.
    var allResources: [Resource] {
        Array(strong.values) + weak.values.compactMap(\.resource)
    }

    var stronglyHeldCount: Int { strong.count }
}

struct WeakResource {
    weak var resource: Resource?

    init(_ resource: Resource) {
        self.resource = resource
    }
}
