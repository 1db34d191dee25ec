import Repose

/// Waiting until a state reaches a condition, with a time limit, so that a step whose answer never comes cannot
/// hang the demo.
@MainActor
enum Waiting {
    /// How many waits ran out of time; the tour fails when any did.
    static private(set) var timeouts = 0

    /// Suspends until `state` holds a value that `condition` accepts (the current one included), or `timeout`
    /// passes.
    ///
    /// - Returns: Whether the condition was met.
    @discardableResult
    static func until<Value>(
        _ state: State<Value>, timeout: Duration = .seconds(15), _ condition: @escaping (Value) -> Bool
    ) async -> Bool {
        let gate = Gate()
        let subscription = state.observe { value in
            if condition(value) { gate.open(true) }
        }
        let timer = Task { @MainActor in
            try? await Task.sleep(for: timeout)
            gate.open(false)
        }
        let met = await gate.result()
        timer.cancel()
        subscription.cancel()
        if !met {
            timeouts += 1
            say("✗ gave up waiting after \(timeout)")
        }
        return met
    }
}

/// A result that is set once and awaited once.
@MainActor
private final class Gate {
    private var value: Bool?
    private var continuation: CheckedContinuation<Bool, Never>?

    /// Sets the result, unless it is set already, and resumes the waiter.
    func open(_ result: Bool) {
        guard value == nil else { return }
        value = result
        continuation?.resume(returning: result)
        continuation = nil
    }

    /// The result, once set.
    func result() async -> Bool {
        if let value { return value }
        return await withCheckedContinuation { continuation = $0 }
    }
}
