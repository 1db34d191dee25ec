extension Resource {
    /// Adds an observer that is its own owner, such as a view controller: the resource holds it weakly, and it
    /// stops observing when it is deallocated. Adding the same object twice registers it once.
    ///
    /// The observer immediately receives ``ResourceEvent/observerAdded``.
    @discardableResult
    public func addObserver(_ observerAndOwner: any ResourceObserver & AnyObject) -> Resource {
        addObserver(observerAndOwner, owner: observerAndOwner)
    }

    /// Adds an observer that keeps observing, held strongly, for as long as `owner` is alive.
    ///
    /// Use it for glue objects that nothing else retains. An observer with an identity (any object) added again
    /// gains another owner instead of being registered twice; it observes until all its owners are gone.
    @discardableResult
    public func addObserver(_ observer: any ResourceObserver, owner: AnyObject) -> Resource {
        if let identity = observer.observerIdentity,
            let existing = observers.first(where: { $0.identity == identity })
        {
            existing.addOwner(owner)
            return self
        }
        let entry = ObserverEntry(observer: observer)
        entry.addOwner(owner)
        observers.append(entry)
        markInUse()
        observer.resourceChanged(self, event: .observerAdded)
        startCacheCheck()
        return self
    }

    /// Adds a closure that hears about every change for as long as `owner` is alive.
    ///
    /// Closures have no identity, so adding the same closure twice calls it twice.
    ///
    /// ```swift
    /// resource.addObserver(owner: self) { resource, event in
    ///     print(event, resource.latestData?.content ?? "nothing yet")
    /// }
    /// ```
    @discardableResult
    public func addObserver(owner: AnyObject, closure: @escaping ResourceObserverClosure) -> Resource {
        observers.append(ObserverEntry(closure: closure, owner: owner))
        markInUse()
        closure(self, .observerAdded)
        startCacheCheck()
        return self
    }

    /// Removes `owner` from every observer it owns. Observers left with no owner stop observing and receive
    /// ``ResourceObserver/stoppedObserving(resource:)``.
    public func removeObservers(ownedBy owner: AnyObject?) {
        guard let owner else { return }
        // Loops rather than `removeAll(where:)`: a closure formed here is main-actor isolated, and passing it to a
        // nonisolated parameter costs a runtime isolation check per element.
        var ended: [any ResourceObserver] = []
        var kept = 0
        for index in observers.indices {
            let entry = observers[index]
            if entry.removeOwner(owner) {
                observers[kept] = entry
                kept += 1
            } else if let observer = entry.end() {
                ended.append(observer)
            }
        }
        observers.removeSubrange(kept...)
        for observer in ended {
            observer.stoppedObserving(resource: self)
        }
    }

    /// Whether any observer is still alive; forgets observers whose owners are gone.
    var hasObservers: Bool {
        sweepSignalSubscriptions()
        pruneObservers()
        return !observers.isEmpty
    }

    /// Forgets observers whose owners are gone, telling those still alive that they stopped observing, and
    /// adjusts how strongly the others are held. Skips closure observers when `includingClosures` is false:
    /// notifying checks their owners as it calls them.
    private func pruneObservers(includingClosures: Bool = true) {
        // Notifying calls this every time: when nothing is gone (the usual case), leave the array untouched.
        var needed = false
        for entry in observers where (includingClosures || entry.closure == nil) && entry.needsPruning {
            needed = true
            break
        }
        guard needed else { return }
        var ended: [any ResourceObserver] = []
        var kept = 0
        for index in observers.indices {
            let entry = observers[index]
            if entry.prune() {
                observers[kept] = entry
                kept += 1
            } else if let observer = entry.end() {
                ended.append(observer)
            }
        }
        observers.removeSubrange(kept...)
        for observer in ended {
            observer.stoppedObserving(resource: self)
        }
    }

    /// Tells every live observer about `event`. Observers added while notifying hear only later events.
    func notifyObservers(_ event: ResourceEvent) {
        pruneObservers(includingClosures: false)
        ReposeLog.log(.observers, "\(url.absoluteString): \(event) to \(observers.count) observer(s)")
        var sawDeadOwner = false
        for entry in observers {
            if let closure = entry.closure {
                guard entry.closureOwnerIsAlive else {
                    sawDeadOwner = true
                    continue
                }
                closure(self, event)
            } else {
                entry.observer?.resourceChanged(self, event: event)
            }
        }
        if sawDeadOwner {
            pruneObservers()
        }
    }

    func notifyObserversOfProgress(_ progress: Double) {
        for entry in observers {
            entry.observer?.resourceRequestProgress(for: self, progress: progress)
        }
    }
}
