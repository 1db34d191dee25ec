/// The logic of `sample(_:)`: the source's value not yet delivered, and whether an emission is scheduled, with no
/// signals involved (S15).
@usableFromInline
struct SampleMachine<Value> {
    /// The source's latest value if it arrived since the last emission: each source value is delivered at most once.
    @usableFromInline var fresh: Value?
    @usableFromInline var isScheduled = false

    @inlinable
    init() {}

    /// The source delivered `value`.
    @inlinable
    mutating func receive(_ value: Value) {
        fresh = value
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
        defer { fresh = nil }
        return fresh
    }

    /// Forgets everything, as when the signal loses its last observer.
    @inlinable
    mutating func reset() {
        self = SampleMachine()
    }
}
