extension Signal {
    /// Delivers a value that this signal originates: the context's deferred emissions run after it.
    @inlinable
    func send(_ value: Value) {
        deliver(value, originContext, flushing: true)
    }

    /// Delivers a value that arrived through a link; the originating signal flushes the context.
    @inlinable
    func deliver(_ value: Value, _ context: DeliveryContext) {
        deliver(value, context, flushing: false)
    }

    @inlinable @inline(__always)
    func deliver(_ value: Value, _ context: DeliveryContext, flushing: Bool) {
        if isDelivering {
            backlog.append((value, context))
            return
        }
        isDelivering = true
        broadcast(value, context)
        if flushing, !context.deferred.isEmpty { context.flush() }
        endDelivery()
    }

    /// Delivers what arrived meanwhile (S4), then reclaims tombstones and finishes if asked to during the delivery.
    @inlinable @inline(__always)
    func endDelivery() {
        if !backlog.isEmpty { drainBacklog() }
        isDelivering = false
        if tombstones != 0 { tidy() }
        if isFinishing { terminate() }
    }

    /// Calls every observer registered when the delivery started (S3, S5).
    @inlinable @inline(__always)
    func broadcast(_ value: Value, _ context: DeliveryContext) {
        var index = 0
        let end = entries.count
        while index < end, index < entries.count {
            if let box = entries[index].unmanaged {
                // Calls through the entry's unowned reference, retaining nothing: `retire(at:)` keeps this box
                // alive if the observer ends during the call.
                runningIndex = index
                box._withUnsafeGuaranteedRef { box in
                    if !call(box, value, context) { retire(at: index) }
                }
                if retiredWhileRunning != nil { releaseRetiredWhileRunning() }
            }
            index &+= 1
        }
        runningIndex = -1
    }

    /// Releases the box of an observer that ended during its own call, now that the call has returned.
    @inlinable @inline(never)
    func releaseRetiredWhileRunning() {
        // Emptied first: the release may run deinits that call back into this signal.
        let box = retiredWhileRunning
        retiredWhileRunning = nil
        withExtendedLifetime(box) {}
    }

    /// Delivers values queued by re-entrant sends, in order (S4). Each queued value's context is flushed after
    /// it, because its origin may already have finished.
    @usableFromInline
    func drainBacklog() {
        var index = 0
        while index < backlog.count {
            let (value, context) = backlog[index]
            index += 1
            broadcast(value, context)
            if !context.deferred.isEmpty { context.flush() }
        }
        backlog.removeAll(keepingCapacity: true)
    }

    /// Connects upstream if needed, then delivers the prefix and `replay` to one new observer only.
    ///
    /// The signal counts as delivering throughout, so values arriving meanwhile (an upstream `prepend` replaying
    /// while connecting, or a send from the observer itself) are queued and follow the replay, in order (S4).
    @usableFromInline
    func connectAndReplay(to id: Int, _ replay: () -> Value?) {
        let wasDelivering = isDelivering
        isDelivering = true
        if liveCount == 1, teardown == nil, let connector {
            connect(connector)
        }
        for value in prefix {
            replayValue(value, to: id)
        }
        // Read after connecting: connecting a derived state's upstream may change the value to replay.
        if let value = replay() {
            replayValue(value, to: id)
        }
        if !wasDelivering { endDelivery() }
    }

    func replayValue(_ value: Value, to id: Int) {
        // A rare path: holding the box keeps the handler alive even if it ends its own observation.
        guard let index = index(of: id), let box = entries[index].box else { return }
        _ = call(box, value, originContext)
        if !originContext.deferred.isEmpty { originContext.flush() }
    }

    /// Calls one observer with a value; returns false, without calling it, if its owner is gone.
    @inlinable @inline(__always)
    func call(_ box: ObserverBox<Value>, _ value: Value, _ context: DeliveryContext) -> Bool {
        switch box.kind {
        case .plain:
            unsafeDowncast(box, to: ClosureBox<Value>.self).handler(value)
        case .linked:
            unsafeDowncast(box, to: LinkBox<Value>.self).handler(value, context)
        // Downcast within each expression: binding the box to a `let` made the optimiser retain it around the weak
        // load of the owner, on every value sent to an owner-scoped observer.
        case .owned:
            guard unsafeDowncast(box, to: OwnedClosureBox<Value>.self).owner != nil else { return false }
            unsafeDowncast(box, to: OwnedClosureBox<Value>.self).handler(value)
        case .ownerPassing:
            guard let owner = unsafeDowncast(box, to: OwnerPassingBoxBase<Value>.self).owner else { return false }
            unsafeDowncast(box, to: OwnerPassingBoxBase<Value>.self).invoke(box, owner, value)
        }
        return true
    }
}
