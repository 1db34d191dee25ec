/// One registered observer and the owners that keep it observing.
///
/// The observer itself may be one of its owners ("self-owned"): then the entry holds it only weakly, so observing
/// does not keep it alive. While any external owner is alive, the entry holds the observer strongly. The entry
/// ends when no owner is left.
@MainActor
final class ObserverEntry {
    // Unchecked exclusivity: every access is a read or write that ends before any call into user code, and the
    // entry lives on the main actor, so no two accesses can overlap. The checks cost more than a delivery.
    @exclusivity(unchecked) private var strongObserver: (any ResourceObserver)?
    @exclusivity(unchecked) private weak var observerObject: AnyObject?
    @exclusivity(unchecked) private var isSelfOwned = false
    @exclusivity(unchecked) private var externalOwners: [WeakOwner] = []
    let identity: AnyHashable?

    init(observer: any ResourceObserver) {
        identity = observer.observerIdentity
        strongObserver = observer
        if !(observer is ClosureObserver), type(of: observer) is AnyClass {
            observerObject = observer as AnyObject
        }
    }

    /// The observer, if it is still alive.
    var observer: (any ResourceObserver)? {
        if let strongObserver { return strongObserver }
        guard let object = observerObject else { return nil }
        return object as? any ResourceObserver
    }

    func addOwner(_ owner: AnyObject) {
        if let object = observerObject, object === owner {
            isSelfOwned = true
        } else if !externalOwners.contains(where: { $0.object === owner }) {
            externalOwners.append(WeakOwner(owner))
        }
        _ = prune()
    }

    /// Removes `owner`; returns whether the entry is still alive. A dead entry still holds its observer until
    /// ``end()``, so that the observer can be told it stopped observing.
    func removeOwner(_ owner: AnyObject) -> Bool {
        if let object = observerObject, object === owner {
            isSelfOwned = false
        }
        externalOwners.removeAll { $0.object === owner || $0.object == nil }
        return isAlive
    }

    private var isAlive: Bool {
        externalOwners.contains { $0.object != nil } || (isSelfOwned && observerObject != nil)
    }

    /// Whether ``prune()`` would change anything: an owner or the observer is gone, or how strongly the observer
    /// is held no longer matches the owners. Reads only, so that notifying live observers mutates nothing.
    var needsPruning: Bool {
        if externalOwners.isEmpty {
            return strongObserver != nil || !isSelfOwned || observerObject == nil
        }
        guard strongObserver != nil else { return true }
        // By index: `contains` would copy each `WeakOwner`, and copying a weak reference is a side-table update.
        for index in externalOwners.indices where externalOwners[index].object == nil {
            return true
        }
        return false
    }

    /// Drops deallocated owners and adjusts how strongly the observer is held; returns whether the entry is alive.
    func prune() -> Bool {
        externalOwners.removeAll { $0.object == nil }
        if externalOwners.isEmpty {
            strongObserver = nil
        } else if strongObserver == nil {
            strongObserver = observer
        }
        return isAlive
    }

    /// Ends the entry; returns the observer if it is still alive, so that it can be told it stopped observing.
    func end() -> (any ResourceObserver)? {
        let remaining = strongObserver ?? observer
        strongObserver = nil
        observerObject = nil
        externalOwners.removeAll()
        isSelfOwned = false
        return remaining
    }
}

/// A weak reference to an observer's owner.
struct WeakOwner {
    weak var object: AnyObject?

    init(_ object: AnyObject) {
        self.object = object
    }
}
