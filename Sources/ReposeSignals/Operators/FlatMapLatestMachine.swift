/// The switching logic of `flatMapLatest`: which inner signal is current, testable without signals.
///
/// Every outer value starts a new generation; only the newest generation's inner values pass (S12), and none
/// pass once the operator is disconnected.
@usableFromInline
struct FlatMapLatestMachine: Equatable {
    @usableFromInline var generation = 0
    @usableFromInline var isConnected = true

    @inlinable
    init() {}

    /// Starts following a new inner signal and returns its generation; the previous one must be dropped.
    @inlinable
    mutating func switchToNewInner() -> Int {
        generation += 1
        return generation
    }

    /// Whether a value from the inner signal of `generation` may be delivered.
    @inlinable
    func accepts(_ generation: Int) -> Bool {
        isConnected && generation == self.generation
    }

    /// Stops following any inner signal.
    @inlinable
    mutating func disconnect() {
        isConnected = false
        generation += 1
    }
}
