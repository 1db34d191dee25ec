/// The logic of ``State/flatMapLatestKeepingPrevious(besideErrors:_:)``: what to show, given the followed
/// resource's states and the switches between resources, with no signals involved (rule X3).
///
/// After a switch, the new resource's states pass only once it has data or an error (only data, when
/// `besideErrors`); until then what shows is its activity (`isLoading`) and, when kept beside errors, its error,
/// over the data shown last, marked ``ResourceState/isPrevious``. Once the new resource has answered, its states
/// pass unchanged, so a later `wipe()` of it shows as empty rather than bringing back data of a resource the app has
/// left.
struct KeepPreviousMachine<Content> {
    /// What was shown last: the source of the data kept across a switch.
    private(set) var shown: ResourceState<Content>?
    /// Whether the followed resource has yet to show data (or, unless `besideErrors`, an error) of its own since the
    /// last switch.
    private var isWaiting = false
    /// Whether the previous data stays beside the new resource's error, until the new resource has data.
    let besideErrors: Bool

    init(besideErrors: Bool = false) {
        self.besideErrors = besideErrors
    }

    /// Switches to a new resource: its states, from the next ``receive(_:)`` on, show over the previous data
    /// until it has data or an error.
    mutating func startSwitch() {
        isWaiting = true
    }

    /// Switches to no resource at all, which forgets the previous data; returns what to show.
    mutating func switchToNothing() -> ResourceState<Content> {
        isWaiting = false
        shown = .empty
        return .empty
    }

    /// The followed resource's state changed to `state`; returns what to show.
    mutating func receive(_ state: ResourceState<Content>) -> ResourceState<Content> {
        if state.latestData != nil || (state.latestError != nil && !besideErrors) { isWaiting = false }
        guard isWaiting, let kept = shown, kept.latestData != nil else {
            shown = state
            return state
        }
        var previous = state
        previous.content = kept.content
        previous.latestData = kept.latestData
        previous.timestamp = kept.timestamp
        previous.isStale = kept.isStale
        previous.isPrevious = true
        shown = previous
        return previous
    }

    /// Forgets everything, as when the last observer leaves.
    mutating func reset() {
        shown = nil
        isWaiting = false
    }
}
