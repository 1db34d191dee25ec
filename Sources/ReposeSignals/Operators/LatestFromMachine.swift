/// The logic of `withLatestFrom(_:)`: which trigger values are waiting, the other input's latest value, and whether
/// an emission is scheduled, with no signals involved (S15).
///
/// Trigger values wait until the delivery that brought them is over, so that the other input, if the same change
/// reaches it too, is up to date when they are paired (as `combineLatest` waits, S9). One trigger value per delivery
/// is the usual case and waits in a field of its own; only more of them go into an array.
@usableFromInline
struct LatestFromMachine<Trigger, Other> {
    @usableFromInline var latest: Other?
    /// The first trigger value waiting; set exactly while an emission is scheduled.
    @usableFromInline var first: Trigger?
    /// The trigger values after the first, in order.
    @usableFromInline var rest: ContiguousArray<Trigger> = []

    @inlinable
    init() {}

    /// Whether an emission is scheduled.
    @inlinable
    var isScheduled: Bool { first != nil }

    /// The other input delivered `value`.
    @inlinable
    mutating func receiveOther(_ value: Other) {
        latest = value
    }

    /// The trigger delivered `value`; returns whether to schedule an emission after the current delivery.
    @inlinable
    mutating func receiveTrigger(_ value: Trigger) -> Bool {
        guard first == nil else {
            rest.append(value)
            return false
        }
        first = value
        return true
    }

    /// The scheduled emission runs: returns the first waiting trigger value and the value to pair the waiting ones
    /// with (nil if the other input has none yet: they are dropped). Any later ones are swapped into `taken`, an
    /// empty buffer on entry, so that no buffer is allocated.
    @inlinable
    mutating func flush(swappingRestInto taken: inout ContiguousArray<Trigger>) -> (first: Trigger?, other: Other?) {
        let waiting = first
        first = nil
        if !rest.isEmpty { swap(&rest, &taken) }
        return (waiting, latest)
    }

    /// Forgets everything, as when the signal loses its last observer.
    @inlinable
    mutating func reset() {
        self = LatestFromMachine()
    }
}
