extension Signal {
    /// Creates a signal fed by an outside source for as long as anyone observes it.
    ///
    /// `connect` runs when the signal gains its first observer; it receives a function that delivers values and
    /// returns the function that disconnects, which runs when the last observer leaves. Use it to bridge callback
    /// APIs into signals:
    ///
    /// ```swift
    /// let ticks = Signal<Int> { send in
    ///     let token = clock.onTick { send($0) }
    ///     return { clock.remove(token) }
    /// }
    /// ```
    ///
    /// - Parameter connect: Starts the outside source and returns how to stop it.
    public convenience init(connect: @escaping (_ send: @escaping (Value) -> Void) -> () -> Void) {
        self.init(prefix: []) { signal in
            connect { [weak signal] value in signal?.send(value) }
        }
    }

    /// Ends observers whose owner is gone now, rather than at the next delivery, and disconnects from upstream if
    /// none remain. Repose calls it before deciding whether a resource is still in use.
    ///
    /// Derived signals fed from this one are swept first: one whose observers have all gone unlinks from here, so
    /// an owner that observed through `map` or `combineLatest` stops counting at once too.
    @usableFromInline
    package func endObserversWithDeadOwners() {
        guard !isDelivering else { return }
        // Collected first: a downstream that loses its last observer unlinks from this signal.
        for downstream in liveLinks().compactMap(\.downstream) {
            downstream.endObserversWithDeadOwners()
        }
        // Counts as a delivery: a released closure that cancels another observer leaves the list in place.
        isDelivering = true
        for index in entries.indices {
            if let box = entries[index].box, Self.hasDeadOwner(box) { retire(at: index) }
        }
        endDelivery()
    }

    /// Whether `box` is an owner-scoped observer whose owner is gone.
    private static func hasDeadOwner(_ box: ObserverBox<Value>) -> Bool {
        switch box.kind {
        case .owned: unsafeDowncast(box, to: OwnedClosureBox<Value>.self).owner == nil
        case .ownerPassing: unsafeDowncast(box, to: OwnerPassingBoxBase<Value>.self).owner == nil
        case .plain, .linked: false
        }
    }
}

extension Signal: DownstreamSignal {
    @usableFromInline
    func upstreamLinked() {
        unfinishedUpstreams += 1
    }

    @usableFromInline
    func upstreamFinished() {
        guard unfinishedUpstreams > 0 else { return }
        unfinishedUpstreams -= 1
        if unfinishedUpstreams == 0 { finish() }
    }
}

extension State {
    /// Creates a state whose value is read from `read` and whose changes are delivered by `changes`.
    ///
    /// The state does not store anything: each read of ``value`` calls `read`, so `changes` must deliver the new
    /// value whenever what `read` returns changes.
    ///
    /// - Parameters:
    ///   - read: Returns the current value.
    ///   - changes: Delivers each new value.
    public convenience init(read: @escaping () -> Value, changes: Signal<Value>) {
        self.init(storage: .derived(read), signal: changes)
    }
}
