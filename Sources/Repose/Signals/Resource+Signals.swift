import Foundation

extension Resource {
    /// The resource's state as a `State`: observing it replays the current snapshot, then delivers a new one
    /// after every change.
    ///
    /// ```swift
    /// user.state.observe(owner: self) { screen, state in
    ///     screen.nameLabel.text = state.jsonDict["name"] as? String
    ///     screen.spinner.isHidden = !state.isLoading
    /// }
    /// ```
    ///
    /// While anything observes it, the resource counts as observed: the service keeps it, exactly as for a
    /// ``ResourceObserver``. Observation ends when the subscription is cancelled or released, or when its owner is
    /// deallocated.
    public var state: State<ResourceState<Any>> {
        let signals = madeSignals
        if let existing = signals.state { return existing }
        let changes = signals.stateChanges ?? makeStateChanges(loadWhenObserved: false, cancelDelay: 0)
        signals.stateChanges = changes
        // The state reads the resource strongly: whoever holds the state may read it after dropping the resource.
        let state = State(read: { [self] in currentState }, changes: changes)
        signals.state = state
        return state
    }

    /// The resource's state with its content typed as `Content` (content of another type reads as `nil`).
    public func state<Content>(as type: Content.Type) -> State<ResourceState<Content>> {
        state.map { $0.typed(as: Content.self) }
    }

    /// Every event the resource sends its observers, as a signal (without the initial `observerAdded`).
    public var events: Signal<ResourceEvent> {
        let signals = madeSignals
        if let existing = signals.events { return existing }
        let events = Signal<ResourceEvent> { [weak self] send in
            guard let self else { return {} }
            let bridge = SignalBridge(send: send)
            addObserver(bridge)
            // Removing happens on the main actor: signals of a resource live there, and so do their teardowns.
            return { [weak self] in MainActor.assumeIsolated { _ = self?.removeObservers(ownedBy: bridge) } }
        }
        signals.events = events
        return events
    }

    /// Like ``state``, but observation drives loading: the first subscriber calls ``loadIfNeeded()``, and when the
    /// last one leaves the load is cancelled after `cancelDelay` seconds unless someone observes again.
    ///
    /// This is the "a screen shows it, so load it" behaviour that TanStack Query users know:
    ///
    /// ```swift
    /// subscription = user.autoloadingState().observe { state in render(state) }
    /// ```
    public func autoloadingState(cancelDelay: TimeInterval = 0.5) -> State<ResourceState<Any>> {
        State(
            read: { [self] in currentState },
            changes: makeStateChanges(loadWhenObserved: true, cancelDelay: cancelDelay))
    }

    private func makeStateChanges(loadWhenObserved: Bool, cancelDelay: TimeInterval) -> Signal<ResourceState<Any>> {
        Signal<ResourceState<Any>> { [weak self] send in
            guard let self else { return {} }
            let feed = StateFeed(resource: self, send: send)
            addObserver(feed)
            madeSignals.stateFeeds.append(feed)
            // A load started while connecting is not sent: the new subscriber's replay, read right after, has it.
            feed.isMuted = true
            if loadWhenObserved { loadIfNeeded() }
            feed.isMuted = false
            feed.watchForStaleness()
            // Disconnecting happens on the main actor: signals of a resource live there, and so do their teardowns.
            return { [weak self] in
                MainActor.assumeIsolated {
                    feed.stopWatching()  // the "now stale" timer goes with its subscriber (R7)
                    guard let self else { return }
                    self.removeObservers(ownedBy: feed)
                    self.signals?.stateFeeds.removeAll { $0 === feed }
                    if loadWhenObserved { self.cancelLoadIfUnobserved(afterDelay: cancelDelay) }
                }
            }
        }
    }

    /// Sends every state subscriber a new snapshot, for a change that has no observer event: the data was
    /// invalidated.
    func refreshStateFeeds() {
        for feed in signals?.stateFeeds ?? [] {
            feed.push()
        }
    }

    /// Ends owner-scoped signal subscriptions whose owner is gone, so that they stop counting as observers now.
    func sweepSignalSubscriptions() {
        guard let signals else { return }
        signals.stateChanges?.endObserversWithDeadOwners()
        signals.events?.endObserversWithDeadOwners()
    }

    /// The resource's signals, made on first use.
    private var madeSignals: ResourceSignals {
        if let signals { return signals }
        let made = ResourceSignals()
        signals = made
        return made
    }
}

/// The resource's signals, created on first use. The signals are held strongly (they only hold the resource
/// weakly); the `State` wrapper reads the resource strongly, so the resource holds it weakly. A reference, made
/// by the first signal asked for: most resources have none, and the fields inline would cost every resource.
@MainActor
final class ResourceSignals {
    var stateChanges: Signal<ResourceState<Any>>?
    weak var state: State<ResourceState<Any>>?
    var events: Signal<ResourceEvent>?
    /// The feeds of every state signal with subscribers (``state`` and each ``Resource/autoloadingState(cancelDelay:)``).
    var stateFeeds: [StateFeed] = []
}

/// The observer through which a resource feeds one state signal: a new snapshot after every event, and one more
/// when the data turns stale with no event at all (rule R7), on the service's one timer, while subscribed.
@MainActor
final class StateFeed: ResourceObserver, DeadlineTarget {
    private weak var resource: Resource?
    private let send: (ResourceState<Any>) -> Void
    var isMuted = false
    /// The time this feed asked the service's timer for: when the data turns stale.
    private var staleAt: TimeInterval?

    init(resource: Resource, send: @escaping (ResourceState<Any>) -> Void) {
        self.resource = resource
        self.send = send
    }

    func resourceChanged(_ resource: Resource, event: ResourceEvent) {
        guard event != .observerAdded, !isMuted else { return }
        push()
    }

    /// Sends the resource's current state, then watches for its data to turn stale.
    func push() {
        guard let resource else { return }
        send(resource.currentState)
        watchForStaleness()
    }

    /// Asks the service's timer to come back when fresh data turns stale, unless it already will.
    func watchForStaleness() {
        guard let resource, let turnsStale = resource.dataTurnsStale, turnsStale != staleAt,
            turnsStale > resource.core.now()
        else { return }
        staleAt = turnsStale
        resource.core.timers.add(turnsStale, for: self)
    }

    /// Withdraws the time this feed asked the service's timer for: its subscriber left.
    func stopWatching() {
        guard staleAt != nil else { return }
        staleAt = nil
        resource?.core.timers.withdraw(self)
    }

    func deadlineArrived(now: TimeInterval) {
        guard let due = staleAt, due <= now else { return }  // the data changed since: a time no longer wanted
        staleAt = nil
        push()
    }
}

/// The observer through which a resource feeds its ``Resource/events`` signal: every event but `observerAdded`.
@MainActor
private final class SignalBridge: ResourceObserver {
    let send: (ResourceEvent) -> Void

    init(send: @escaping (ResourceEvent) -> Void) {
        self.send = send
    }

    func resourceChanged(_ resource: Resource, event: ResourceEvent) {
        guard event != .observerAdded else { return }
        send(event)
    }
}
