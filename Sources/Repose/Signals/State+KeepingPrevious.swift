extension State {
    /// Follows the resource state `transform` chooses for this state's value, as `flatMapLatest(_:)` does, but keeps
    /// showing the previous resource's data while the new one loads (rule X3), and if asked, when it fails.
    ///
    /// Typical use: search results that stay on screen, dimmed, while the next query's results load, instead of
    /// flashing an empty list on every keystroke.
    ///
    /// ```swift
    /// let results = query.state.signal
    ///     .debounce(for: .milliseconds(300), scheduler: MainScheduler())
    ///     .hold(initial: "")
    ///     .flatMapLatestKeepingPrevious(besideErrors: true) { text in
    ///         text.isEmpty ? nil : api.resource("/search").withParam("q", text).autoloadingState()
    ///     }
    /// ```
    ///
    /// After a switch, until the new resource has data or an error, the state shows the new resource's activity
    /// (``ResourceState/isLoading``) with the data shown last, and ``ResourceState/isPrevious`` is `true`. A new
    /// resource that already has data (an earlier query, say) shows it at once. An error on the new resource shows
    /// the error alone by default; with `besideErrors`, the previous data stays beside it, still marked as previous,
    /// until the new resource has data (a retry that succeeds, say): a failed query then leaves the last results on
    /// screen under an error banner. Return `nil` for "nothing to show": the state becomes ``ResourceState/empty``
    /// and the previous data is forgotten.
    ///
    /// The previous data lives only while the state is observed: read without observers, the value is the chosen
    /// resource's own state.
    ///
    /// - Parameters:
    ///   - besideErrors: Whether to keep the previous data beside the new resource's error; `false` by default.
    ///   - transform: Chooses the resource state to follow for a value of this state, or `nil` for none.
    /// - Returns: The followed resource's state, with the previous data kept across switches.
    public func flatMapLatestKeepingPrevious<Content>(
        besideErrors: Bool = false, _ transform: @escaping (Value) -> State<ResourceState<Content>>?
    ) -> State<ResourceState<Content>> {
        let box = KeepPreviousBox<Content>(besideErrors: besideErrors)
        let changes = Signal<ResourceState<Content>> { send in
            var inner: Subscription?
            func follow(_ value: Value) -> ResourceState<Content> {
                inner?.cancel()
                inner = nil
                guard let next = transform(value) else { return box.machine.switchToNothing() }
                box.machine.startSwitch()
                // The replay, which comes once the new state is connected (and an autoloading one is loading), is
                // returned rather than sent: the caller sends it as the switch's one change.
                var isReplaying = true
                inner = next.observe { state in
                    let shown = box.machine.receive(state)
                    if !isReplaying { send(shown) }
                }
                isReplaying = false
                return box.machine.shown ?? .empty
            }
            box.isConnected = true
            _ = follow(self.value)
            let outer = self.signal.observe { value in send(follow(value)) }
            return {
                outer.cancel()
                inner?.cancel()
                inner = nil
                box.isConnected = false
                box.machine.reset()
            }
        }
        return State<ResourceState<Content>>(
            read: {
                if box.isConnected, let shown = box.machine.shown { return shown }
                return transform(self.value)?.value ?? .empty
            },
            changes: changes)
    }
}

/// The machine of one ``State/flatMapLatestKeepingPrevious(besideErrors:_:)`` state, shared by its reads and its
/// changes.
final class KeepPreviousBox<Content> {
    var machine: KeepPreviousMachine<Content>
    var isConnected = false

    init(besideErrors: Bool) {
        machine = KeepPreviousMachine(besideErrors: besideErrors)
    }
}
