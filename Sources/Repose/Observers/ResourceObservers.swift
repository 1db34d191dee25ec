/// The observers of one resource, in the order they were added, with the books that keep notifying cheap.
///
/// A value the resource owns. Its methods change the books and return what must be told to whom; the resource
/// makes those calls into app code after the change, so that no observer's code runs while the books are open.
@MainActor
struct ResourceObservers {
    /// Every registered observer, oldest first.
    private(set) var entries: [ResourceObserverEntry] = []
    /// How many entries are not closure observers: while none are, notifying has nothing to prune first.
    private(set) var objectObserverCount = 0
    /// The number the next closure observer takes if it does not join the run of the one before it.
    private var nextOwnerRun = 0

    var count: Int { entries.count }
    var isEmpty: Bool { entries.isEmpty }

    /// Registers `observer` for `owner`; returns `false` if it was already registered and only gained an owner.
    mutating func add(_ observer: any ResourceObserver, owner: AnyObject) -> Bool {
        if let identity = observer.observerIdentity,
            let existing = entries.first(where: { $0.identity == identity })
        {
            existing.addOwner(owner)
            return false
        }
        let entry = ResourceObserverEntry(observer: observer)
        entry.addOwner(owner)
        entries.append(entry)
        objectObserverCount += 1
        return true
    }

    /// Registers `closure` for `owner`. Closure observers added one after another with the same owner form a run,
    /// whose owner notifying checks once.
    mutating func add(_ closure: @escaping ResourceObserverClosure, owner: AnyObject) {
        let run: Int
        if let last = entries.last, last.isClosureObserver, !last.isDetached, last.closureOwner === owner {
            run = last.ownerRun
        } else {
            run = nextOwnerRun
            nextOwnerRun &+= 1
        }
        entries.append(ResourceObserverEntry(closure: closure, owner: owner, ownerRun: run))
    }

    /// Whether ``prune(includingClosures:)`` would forget anything. Skips closure observers when
    /// `includingClosures` is false: notifying checks their owners as it calls them.
    func needsPruning(includingClosures: Bool = true) -> Bool {
        // Notifying asks every time: when nothing is gone (the usual case), the entries stay untouched.
        for entry in entries where (includingClosures || !entry.isClosureObserver) && entry.needsPruning {
            return true
        }
        return false
    }

    enum Sweep {
        case removingOwner(AnyObject)
        case pruning
    }

    /// Keeps the observers still alive after `sweep`, in order, and returns the ones that ended and are still
    /// alive, to be told that they stopped observing.
    mutating func sweep(_ sweep: Sweep) -> [any ResourceObserver] {
        // Loops rather than `removeAll(where:)`: a closure formed here is main-actor isolated, and passing it to a
        // nonisolated parameter costs a runtime isolation check per element.
        var ended: [any ResourceObserver] = []
        var kept = 0
        var objectObservers = 0
        for index in entries.indices {
            let entry = entries[index]
            let isAlive: Bool
            switch sweep {
            case .removingOwner(let owner): isAlive = entry.removeOwner(owner)
            case .pruning: isAlive = entry.prune()
            }
            if isAlive {
                entries[kept] = entry
                kept += 1
                if !entry.isClosureObserver { objectObservers += 1 }
            } else if let observer = entry.end() {
                ended.append(observer)
            }
        }
        entries.removeSubrange(kept...)
        objectObserverCount = objectObservers
        return ended
    }
}
