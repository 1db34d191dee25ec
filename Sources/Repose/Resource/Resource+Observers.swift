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
        guard observers.add(observer, owner: owner) else { return self }
        markInUse()
        core.requestQueue.observersChanged(of: self)  // a waiting load of it moves up (rule Q2)
        observer.resourceChanged(self, event: .observerAdded)
        startCacheCheck()
        pollWhenDue()
        return self
    }

    /// Adds a closure that hears about every change for as long as `owner` is alive.
    ///
    /// Closures have no identity, so adding the same closure twice calls it twice. While a change is delivered to
    /// the owner's closures, the owner is kept alive, so a closure that captures it `unowned` is safe.
    ///
    /// ```swift
    /// resource.addObserver(owner: self) { resource, event in
    ///     print(event, resource.latestData?.content ?? "nothing yet")
    /// }
    /// ```
    @discardableResult
    public func addObserver(owner: AnyObject, closure: @escaping ResourceObserverClosure) -> Resource {
        observers.add(closure, owner: owner)
        markInUse()
        core.requestQueue.observersChanged(of: self)  // a waiting load of it moves up (rule Q2)
        closure(self, .observerAdded)
        startCacheCheck()
        pollWhenDue()
        return self
    }

    /// Removes `owner` from every observer it owns. Observers left with no owner stop observing and receive
    /// ``ResourceObserver/stoppedObserving(resource:)``.
    public func removeObservers(ownedBy owner: AnyObject?) {
        guard let owner else { return }
        sweepObservers(.removingOwner(owner))
    }

    /// Whether any registered observer is still alive; forgets observers whose owners are gone. Signal
    /// subscriptions count through the observers that feed them: see ``isObserved``.
    var hasObservers: Bool {
        pruneObservers()
        return !observers.isEmpty
    }

    /// Forgets observers whose owners are gone, telling those still alive that they stopped observing, and
    /// adjusts how strongly the others are held.
    private func pruneObservers(includingClosures: Bool = true) {
        guard observers.needsPruning(includingClosures: includingClosures) else { return }
        sweepObservers(.pruning)
    }

    private func sweepObservers(_ sweep: ResourceObservers.Sweep) {
        for observer in observers.sweep(sweep) {
            observer.stoppedObserving(resource: self)
        }
        if observers.isEmpty {
            noteMaybeUnused()
            core.requestQueue.observersChanged(of: self)  // a waiting load of it moves down (rule Q2)
        }
    }

    /// Tells every live observer about `event`. Observers added while notifying hear only later events.
    func notifyObservers(_ event: ResourceEvent) {
        if observers.objectObserverCount > 0 { pruneObservers(includingClosures: false) }
        ReposeLog.log(.observers, "\(logName): \(event) to \(observers.count) observer(s)")
        // The copy keeps every entry alive however observers change during the calls, so each entry is reached
        // through an `unowned(unsafe)` reference, without retaining it. The owner of a run of closure observers is
        // loaded once and held until the run ends, so it cannot vanish midway; an entry detached meanwhile (its
        // owner removed by an earlier call) is skipped.
        //
        // No closure per entry: a main-actor closure handed to a nonisolated function (such as
        // `Unmanaged._withUnsafeGuaranteedRef`, used here before) checks its isolation at run time on every call,
        // and outside a task, where apps run, that check takes its slow path: on the process's main thread it cost
        // more than the rest of a delivery.
        let entries = observers.entries
        var sawDeadOwner = false
        var run = -1
        var runOwner: AnyObject?
        for index in entries.indices {
            unowned(unsafe) let entry = entries[index]
            if entry.isClosureObserver {
                if entry.ownerRun != run {
                    run = entry.ownerRun
                    runOwner = entry.closureOwner
                }
                if runOwner != nil, !entry.isDetached {
                    entry.closure(self, event)
                } else {
                    sawDeadOwner = true
                }
            } else {
                entry.observer?.resourceChanged(self, event: event)
            }
        }
        // Swift's lexical lifetimes keep `runOwner`'s value until its reassignment or this line: the optimiser does
        // not end a variable's lifetime before a call to unknown code, such as a closure. (`withExtendedLifetime`
        // around each call would copy it, on every delivery.)
        runOwner = nil
        // `entries` must outlive the loop's unowned references. (Not `withExtendedLifetime(entries) {}`: its closure
        // would pay the run-time isolation check described above.)
        extendLifetime(entries)
        if sawDeadOwner {
            pruneObservers()
        }
    }

    /// Tells the observers that take progress, the object observers, how far a load has got. Closure observers
    /// take none, so they cost nothing here: a resource observed only by closures returns at once.
    func notifyObserversOfProgress(_ progress: Double) {
        guard observers.objectObserverCount > 0 else { return }
        let entries = observers.entries
        for index in entries.indices where !entries[index].isClosureObserver {
            entries[index].observer?.resourceRequestProgress(for: self, progress: progress)
        }
    }
}
