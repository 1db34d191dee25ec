/// The switching logic of `flatMapLatest`: which inner signal is current, testable without signals.
///
/// Every outer value starts a new generation; only the newest generation's inner values pass (S12), and none
/// pass once the operator is disconnected.
struct FlatMapLatestMachine: Equatable {
    private(set) var generation = 0
    private(set) var isConnected = true

    /// Starts following a new inner signal and returns its generation; the previous one must be dropped.
    mutating func switchToNewInner() -> Int {
        generation += 1
        return generation
    }

    /// Whether a value from the inner signal of `generation` may be delivered.
    func accepts(_ generation: Int) -> Bool {
        isConnected && generation == self.generation
    }

    /// Stops following any inner signal.
    mutating func disconnect() {
        isConnected = false
        generation += 1
    }
}
