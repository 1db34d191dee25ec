/// The timing logic of `combineLatest`, free of values and time so it can be tested on its own.
///
/// It tracks which inputs have delivered at least once and whether an emission is already scheduled for the
/// current delivery, so that several inputs changed by one root value emit once (S9).
@usableFromInline
struct CombineLatestMachine: Equatable {
    @usableFromInline
    enum Decision: Equatable {
        /// Some input has never delivered: emit nothing yet.
        case wait
        /// Schedule one emission after the current delivery.
        case schedule
        /// An emission is already scheduled and will carry this change.
        case alreadyScheduled
    }

    @usableFromInline var hasValue: [Bool]
    @usableFromInline var missing: Int
    @usableFromInline var isScheduled = false

    /// - Parameters:
    ///   - inputCount: How many inputs are combined.
    ///   - seeded: Whether every input starts with a value (combining states).
    @inlinable
    init(inputCount: Int, seeded: Bool = false) {
        hasValue = Array(repeating: seeded, count: inputCount)
        missing = seeded ? 0 : inputCount
    }

    /// Whether every input has delivered at least once.
    var isReady: Bool { missing == 0 }

    /// Records that `input` delivered a value.
    @inlinable
    mutating func receive(input: Int) -> Decision {
        if !hasValue[input] {
            hasValue[input] = true
            missing -= 1
        }
        guard missing == 0 else { return .wait }
        if isScheduled { return .alreadyScheduled }
        isScheduled = true
        return .schedule
    }

    /// Called when the scheduled emission runs; returns whether to emit.
    @inlinable
    mutating func flush() -> Bool {
        guard isScheduled else { return false }
        isScheduled = false
        return missing == 0
    }

    /// Forgets everything, as when the combined signal loses its last observer.
    @inlinable
    mutating func reset(seeded: Bool = false) {
        self = CombineLatestMachine(inputCount: hasValue.count, seeded: seeded)
    }
}
