/// The logic of `prefix(_:)`, `first()` and `prefix(while:)`: which values pass and when the signal has taken what
/// it asked for, with no signals involved (S17).
@usableFromInline
struct PrefixMachine: Equatable {
    @usableFromInline
    enum Decision: Equatable {
        /// Deliver the value; more may follow.
        case deliver
        /// Deliver the value, then finish: it was the last one asked for.
        case deliverAndFinish
        /// Finish without delivering the value (`prefix(while:)` met the first value that fails).
        case finish
        /// The prefix is over: ignore the value.
        case ignore
    }

    /// How many more values may pass; `Int.max` for `prefix(while:)`.
    @usableFromInline var remaining: Int

    /// - Parameter maxLength: How many values pass; zero or less takes nothing.
    @inlinable
    init(maxLength: Int) {
        remaining = max(maxLength, 0)
    }

    /// Whether the prefix is over and the signal should finish (at once, for a length of zero).
    @inlinable
    var isDone: Bool { remaining == 0 }

    /// A value arrived; `passes` is false when a `prefix(while:)` predicate rejected it.
    @inlinable
    mutating func receive(passes: Bool = true) -> Decision {
        guard remaining > 0 else { return .ignore }
        guard passes else {
            remaining = 0
            return .finish
        }
        if remaining != .max { remaining -= 1 }
        return remaining == 0 ? .deliverAndFinish : .deliver
    }
}
