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
        let tracker = ObservationTracker(read: read, actor: isolation)
        let changes = Signal<Value>(prefix: []) { signal in
            tracker.start(signal)
            return { tracker.stop() }
        }
        self.init(storage: .derived(read), signal: changes)
    }
}

/// Re-evaluates one tracked expression each time what it read changes, while its state is observed.
///
/// While connected, the tracker holds the state's signal, as an operator's link holds the derived signal it feeds:
/// an observer needs to keep nothing but its owner. Disconnecting lets go. The change handler that Observation keeps
/// holds the tracker only weakly, so nothing the app dropped is kept by an armed tracking.
// @unchecked Sendable: the stored state (`signal`, `generation`) is only touched in the state's isolation domain:
// `start` and `stop` run in its signal's connector and teardown, `changed` is isolated to `actor`. The change
// handler, which runs wherever the tracked property is set, only holds this object weakly and hops to `actor`.
final class ObservationTracker<Value>: @unchecked Sendable {
    private let read: () -> Value
    private let actor: any Actor
    private var signal: Signal<Value>?
    /// Advanced by each start and stop, so that a change reported to an earlier connection is ignored.
    private var generation = 0

    init(read: @escaping () -> Value, actor: any Actor) {
        self.read = read
        self.actor = actor
    }

    func start(_ signal: Signal<Value>) {
        self.signal = signal
        generation += 1
        _ = track()
    }

    func stop() {
        signal = nil
        generation += 1
    }

    /// Evaluates `read` under observation tracking, for one change report.
    private func track() -> Value {
        let generation = self.generation
        let actor = self.actor
        return withObservationTracking(read) { [weak self] in
            guard let self else { return }
            Task { await self.changed(generation, isolation: actor) }
        }
    }

    private func changed(_ generation: Int, isolation: isolated any Actor) {
        guard generation == self.generation, let signal else { return }
        let value = track()
        signal.send(value)
    }
}
