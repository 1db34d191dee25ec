/// The logic of `sample(_:)`: the source's latest value, whether it has been delivered, and whether an emission is
/// scheduled, with no signals involved (S15).
@usableFromInline
struct SampleMachine<Value> {
    @usableFromInline var latest: Value?
    /// Whether ``latest`` arrived since the last emission: each source value is delivered at most once.
    @usableFromInline var isFresh = false
    @usableFromInline var isScheduled = false

    @inlinable
    init() {}

    /// The source delivered `value`.
    @inlinable
    mutating func receive(_ value: Value) {
        latest = value
        isFresh = true
    }

    /// The trigger ticked; returns whether to schedule an emission after the current delivery.
    @inlinable
    mutating func tick() -> Bool {
        guard !isScheduled else { return false }
        isScheduled = true
        return true
    }

    /// The scheduled emission runs: the value to deliver, if a new one arrived since the last emission.
    @inlinable
    mutating func flush() -> Value? {
        isScheduled = false
        guard isFresh else { return nil }
        isFresh = false
        return latest
    }

    /// Forgets everything, as when the signal loses its last observer.
    @inlinable
    mutating func reset() {
        self = SampleMachine()
    }
}
