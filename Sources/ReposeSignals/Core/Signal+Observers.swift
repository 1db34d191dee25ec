extension Signal {
    /// Appends an observer, connects upstream if it is the first, and replays the prefix to it.
    @inlinable
    func register(_ box: consuming ObserverBox<Value>) -> Int {
        let id = nextID
        nextID &+= 1
        entries.append(ObserverEntry(id: id, box: box))
        liveCount += 1
        if !prefix.isEmpty {
            connectAndReplay(to: id) { nil }
        } else if liveCount == 1, teardown == nil, let connector {
            connect(connector)
            if isFinishing, !isDelivering { terminate() }
        }
        return id
    }

    /// Appends an observer, connects upstream if it is the first, and then replays `current()`, read after
    /// connecting (a state's value may depend on what connecting did).
    @inlinable
    func register(_ box: consuming ObserverBox<Value>, replayingCurrent current: () -> Value) -> Int {
        let id = nextID
        nextID &+= 1
        entries.append(ObserverEntry(id: id, box: box))
        liveCount += 1
        connectAndReplay(to: id, current)
        return id
    }

    /// The subscription handle for observer `id`.
    @inlinable
    func subscription(for id: Int, endsOnRelease: Bool) -> Subscription {
        Subscription(host: self, id: id, endsOnRelease: endsOnRelease) { host, id in
            unsafeDowncast(host, to: Signal<Value>.self).removeObserver(id)
        }
    }

    /// Ends one observer: its closure is released at once, or if it is running, when it returns; the slot is
    /// reclaimed later (S2).
    @inlinable
    func removeObserver(_ id: Int) {
        guard let index = index(of: id), entries[index].box != nil else { return }
        retire(at: index)
        if !isDelivering { tidy() }
    }

    /// Binary search: ids only grow and compaction keeps their order, so cancelling is O(log n).
    @inlinable
    func index(of id: Int) -> Int? {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low &+ high) / 2
            let candidate = entries[middle].id
            if candidate == id { return middle }
            if candidate < id { low = middle &+ 1 } else { high = middle }
        }
        return nil
    }

    @inlinable
    func retire(at index: Int) {
        // Releasing a closure can run deinits that call back into this signal (a captured subscription), so
        // the last release must happen after the write to `entries` has ended.
        let box = entries[index].box
        entries[index].box = nil
        entries[index].unmanaged = nil
        liveCount -= 1
        tombstones += 1
        if index == runningIndex {
            // A delivery is calling this observer without holding it: release it once the call returns (S2).
            retiredWhileRunning = box
        } else {
            withExtendedLifetime(box) {}
        }
    }

    /// Runs the connector; a ``finish()`` called meanwhile waits until it has returned.
    @inlinable
    func connect(_ connector: (Signal<Value>) -> Teardown) {
        isConnecting = true
        teardown = connector(self)
        isConnecting = false
    }

    /// Reclaims tombstones and disconnects from upstream once nobody observes. Never runs during a delivery.
    @inlinable
    func tidy() {
        while !entries.isEmpty, entries[entries.count - 1].box == nil {
            entries.removeLast()
            tombstones -= 1
        }
        if liveCount == 0 {
            entries.removeAll(keepingCapacity: entries.capacity <= 64)
            tombstones = 0
            if let teardown {
                self.teardown = nil
                unfinishedUpstreams = 0
                teardown()
            }
        } else if tombstones > 8, tombstones * 2 > entries.count {
            entries.removeAll { $0.box == nil }
            tombstones = 0
        }
    }

    /// Ends every observer because this signal will deliver nothing more (a `prefix` took what it asked for, an
    /// async sequence ended), disconnects from upstream and finishes the derived signals fed from here. During a
    /// delivery the observers end once it is over, so values this signal already accepted still reach them; a new
    /// observer afterwards connects afresh.
    @usableFromInline
    func finish() {
        guard liveCount > 0 else { return }
        if isDelivering || isConnecting {
            isFinishing = true
        } else {
            terminate()
        }
    }

    /// Finishes once the delivery that `context` carries is over, after the emissions deferred during it
    /// (a `withLatestFrom` or `combineLatest` downstream pairing the last value), so that they are not lost.
    @inlinable
    func finish(after context: DeliveryContext) {
        context.schedule(self) { signal, _ in unsafeDowncast(signal, to: Signal<Value>.self).finish() }
    }

    /// Ends every observer now, even during a delivery (the source is gone: no value can ever arrive again), and
    /// finishes the derived signals fed from here.
    @usableFromInline
    func terminate() {
        isFinishing = false
        // Collected first: ending the observers releases the links, and telling a downstream may unlink it.
        let links = liveLinks()
        // Counts as a delivery: a released closure that cancels another observer leaves the list in place.
        let wasDelivering = isDelivering
        isDelivering = true
        for index in entries.indices where entries[index].box != nil {
            retire(at: index)
        }
        if !wasDelivering { endDelivery() }
        for link in links { link.upstreamFinished() }
    }

    /// The operator links among the live observers.
    func liveLinks() -> [LinkBox<Value>] {
        var links: [LinkBox<Value>] = []
        for entry in entries {
            if let box = entry.box, box.kind == .linked { links.append(unsafeDowncast(box, to: LinkBox<Value>.self)) }
        }
        return links
    }
}
