/// One registered observer and the owners that keep it observing.
///
/// Two kinds share this type. A closure observer (``Resource/addObserver(owner:closure:)``) has no identity, so it
/// always has exactly one owner: the entry keeps the closure and that owner side by side, and notifying calls the
/// closure directly. Any other observer may have several owners, and may be one of them itself ("self-owned"):
/// then the entry holds it only weakly, so observing does not keep it alive. While any external owner is alive,
/// the entry holds the observer strongly. Either kind ends when no owner is left.
@MainActor
final class ResourceObserverEntry {
    // Unchecked exclusivity: every access is a read or write that ends before any call into user code, and the
    // entry lives on the main actor, so no two accesses can overlap. The checks cost more than a delivery.

    /// A closure observer's closure. Not optional, so that a delivery calls it without copying it out (which
    /// would retain its context); other observers get a shared one that does nothing.
    let closure: ResourceObserverClosure
    /// A closure observer's owner, if it is alive and still owns this entry. Read in place when notifying.
    @exclusivity(unchecked) private(set) weak var closureOwner: AnyObject?
    /// Closure observers added one after another with the same owner share this number, so that notifying checks
    /// that owner once for the whole run rather than once per closure: loading a weak reference costs two atomic
    /// operations, more than the call itself.
    let ownerRun: Int
    /// Set when a closure observer's owner is removed or the entry ends. A plain flag, so that notifying can see
    /// it without loading the weak owner again.
    @exclusivity(unchecked) private(set) var isDetached = false
    /// Whether this entry is a closure observer; if not, ``closure`` does nothing and ``observer`` is called. Beside
    /// the other flag: stored properties are laid out in order, and a flag between two words costs a word of
    /// padding in every entry.
    let isClosureObserver: Bool
    /// What only an observer that is not a closure has: its identity and owners. In a box of its own, allocated
    /// for those observers only: inline, every closure observer's entry carried these fields unused, a large part
    /// of the memory an observer takes.
    private let object: ObjectObserver?

    /// An entry for a closure observer, kept alive by `owner`, in the given run of entries with that owner.
    init(closure: @escaping ResourceObserverClosure, owner: AnyObject, ownerRun: Int) {
        self.closure = closure
        isClosureObserver = true
        closureOwner = owner
        self.ownerRun = ownerRun
        object = nil
    }

    /// An entry for any other observer; its owners are added with ``addOwner(_:)``.
    init(observer: any ResourceObserver) {
        closure = ResourceObserverEntry.ignore
        isClosureObserver = false
        ownerRun = -1
        object = ObjectObserver(observer)
    }

    private static let ignore: ResourceObserverClosure = { _, _ in }

    /// Observers with equal identities are one observer; `nil` for closures and values.
    var identity: AnyHashable? { object?.identity }

    /// Whether the owner of a closure observer is alive.
    var closureOwnerIsAlive: Bool { closureOwner != nil }

    /// The observer, if it is still alive; `nil` for a closure observer, which notifying calls directly.
    var observer: (any ResourceObserver)? { object?.observer }

    func addOwner(_ owner: AnyObject) {
        object?.addOwner(owner)
    }

    /// Removes `owner`; returns whether the entry is still alive. A dead entry still holds its observer until
    /// ``end()``, so that the observer can be told it stopped observing.
    func removeOwner(_ owner: AnyObject) -> Bool {
        guard let object else {
            if closureOwner === owner {
                closureOwner = nil
                isDetached = true
            }
            return closureOwnerIsAlive
        }
        return object.removeOwner(owner)
    }

    /// Whether ``prune()`` would change anything: an owner or the observer is gone, or how strongly the observer
    /// is held no longer matches the owners. Reads only, so that notifying live observers mutates nothing.
    var needsPruning: Bool {
        guard let object else { return !closureOwnerIsAlive }
        return object.needsPruning
    }

    /// Drops deallocated owners and adjusts how strongly the observer is held; returns whether the entry is alive.
    func prune() -> Bool {
        guard let object else { return closureOwnerIsAlive }
        return object.prune()
    }

    /// Ends the entry; returns the observer if it is still alive, so that it can be told it stopped observing. A
    /// closure observer has nothing to be told, so ending one returns `nil`.
    func end() -> (any ResourceObserver)? {
        closureOwner = nil
        isDetached = true
        return object?.end()
    }
}

/// An observer that is not a closure, with its owners: it may have several, and may be one of them itself
/// ("self-owned"), in which case it is held only weakly, so that observing does not keep it alive. While any
/// external owner is alive, the observer is held strongly.
@MainActor
private final class ObjectObserver {
    // Unchecked exclusivity, as for the entry: no access overlaps a call into user code.
    @exclusivity(unchecked) private var strongObserver: (any ResourceObserver)?
    @exclusivity(unchecked) private weak var observerObject: AnyObject?
    @exclusivity(unchecked) private var isSelfOwned = false
    @exclusivity(unchecked) private var externalOwners: [WeakOwner] = []
    let identity: AnyHashable?

    init(_ observer: any ResourceObserver) {
        identity = observer.observerIdentity
        strongObserver = observer
        if type(of: observer) is AnyClass {
            observerObject = observer as AnyObject
        }
    }

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

    func removeOwner(_ owner: AnyObject) -> Bool {
        if let object = observerObject, object === owner {
            isSelfOwned = false
        }
        var index = externalOwners.startIndex
        while index < externalOwners.endIndex {
            let current = externalOwners[index].object
            if current == nil || current === owner {
                externalOwners.remove(at: index)
            } else {
                index += 1
            }
        }
        return isAlive
    }

    private var isAlive: Bool {
        for index in externalOwners.indices where externalOwners[index].object != nil {
            return true
        }
        return isSelfOwned && observerObject != nil
    }

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

    func prune() -> Bool {
        externalOwners.removeAll { $0.object == nil }
        if externalOwners.isEmpty {
            strongObserver = nil
        } else if strongObserver == nil {
            strongObserver = observer
        }
        return isAlive
    }

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
