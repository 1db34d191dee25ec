import Observation

extension State {
    /// Creates a state whose value is `read`, re-evaluated whenever an `@Observable` property it reads changes (S21).
    ///
    /// ```swift
    /// @Observable final class Cart { var items: [Item] = [] }
    ///
    /// let count = State(tracking: { cart.items.count })
    /// count.observe(owner: self) { screen, count in screen.badge = count }
    /// ```
    ///
    /// While the state is observed, `read` runs under `withObservationTracking`; a change of anything it read
    /// schedules a re-evaluation in the state's isolation domain (the caller's, the main actor typically), which
    /// delivers the new value. Observation reports a change before the property is set, so the new value arrives
    /// just after the change, not within it; several changes before then arrive as one. Every re-evaluation
    /// notifies, like an assignment to a ``MutableState``: add ``removeDuplicates()`` to skip equal values.
    ///
    /// Reading ``value`` calls `read`. Nothing is tracked while the state has no observers. While it has some, the
    /// tracking keeps its changes, and what `read` captures, alive, as a derived signal's inputs keep it: an
    /// owner-scoped observer needs nothing else kept. An owner that goes away is noticed at the next change, as with
    /// every signal; then the tracking ends.
    ///
    /// - Parameters:
    ///   - read: Computes the value from `@Observable` properties; called in the state's isolation domain.
    ///   - isolation: The isolation domain of the state's graph; the caller's, unless given.
    public convenience init(tracking read: @escaping () -> Value, isolation: isolated (any Actor) = #isolation) {
        let actor = isolation
        let changes = Signal<Value> { signal in
            let tracker = ObservationTracker(read: read, actor: actor, signal: signal)
            _ = tracker.track()
            return { tracker.signal = nil }
        }
        self.init(storage: .derived(read), signal: changes)
    }
}

/// Re-evaluates one tracked expression each time what it read changes, for one connection of its state's signal.
///
/// While connected, the tracker holds the state's signal, as an operator's link holds the derived signal it feeds:
/// an observer needs to keep nothing but its owner. Disconnecting lets go, and a change reported afterwards is
/// ignored. The change handler that Observation keeps holds the tracker only weakly, so nothing the app dropped is
/// kept by an armed tracking.
// @unchecked Sendable: `signal` is only touched in the state's isolation domain: the connector and teardown set it,
// `changed` is isolated to `actor`. The change handler, which runs wherever the tracked property is set, only holds
// this object weakly and hops to `actor`.
final class ObservationTracker<Value>: @unchecked Sendable {
    private let read: () -> Value
    private let actor: any Actor
    /// Nil once disconnected.
    var signal: Signal<Value>?

    init(read: @escaping () -> Value, actor: any Actor, signal: Signal<Value>) {
        self.read = read
        self.actor = actor
        self.signal = signal
    }

    /// Evaluates `read` under observation tracking, for one change report.
    func track() -> Value {
        let actor = self.actor
        return withObservationTracking(read) { [weak self] in
            guard let self else { return }
            Task { await self.changed(isolation: actor) }
        }
    }

    private func changed(isolation: isolated any Actor) {
        guard let signal else { return }
        signal.send(track())
    }
}
