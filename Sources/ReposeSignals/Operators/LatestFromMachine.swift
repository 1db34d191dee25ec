/// The logic of `withLatestFrom(_:)`: which trigger values are waiting, the other input's latest value, and whether
/// an emission is scheduled, with no signals involved (S15).
///
/// Trigger values wait until the delivery that brought them is over, so that the other input, if the same change
/// reaches it too, is up to date when they are paired (as `combineLatest` waits, S9).
@usableFromInline
struct LatestFromMachine<Trigger, Other> {
    @usableFromInline var latest: Other?
    @usableFromInline var waiting: ContiguousArray<Trigger> = []
    @usableFromInline var isScheduled = false

    @inlinable
    init() {}

    /// The other input delivered `value`.
    @inlinable
    mutating func receiveOther(_ value: Other) {
        latest = value
    }

    /// The trigger delivered `value`; returns whether to schedule an emission after the current delivery.
    @inlinable
    mutating func receiveTrigger(_ value: Trigger) -> Bool {
        waiting.append(value)
        guard !isScheduled else { return false }
        isScheduled = true
        return true
    }

    /// The scheduled emission runs: moves the waiting trigger values into `taken` (empty on entry, so no buffer is
    /// allocated) and returns the value to pair them with, or nil if the other input has none yet (they are
    /// dropped).
    @inlinable
    mutating func flush(into taken: inout ContiguousArray<Trigger>) -> Other? {
        isScheduled = false
        swap(&waiting, &taken)
        return latest
    }

    /// Forgets everything, as when the signal loses its last observer.
    @inlinable
    mutating func reset() {
        latest = nil
        waiting.removeAll()
        isScheduled = false
    }
}
