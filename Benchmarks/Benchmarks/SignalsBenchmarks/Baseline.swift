/// The hand-written baseline: what an app would write without a library, an array of closures.
final class ClosureList<Value> {
    private var handlers: [(id: Int, handler: (Value) -> Void)] = []
    private var nextID = 0

    func add(_ handler: @escaping (Value) -> Void) -> Int {
        nextID += 1
        handlers.append((nextID, handler))
        return nextID
    }

    /// A linear search, as a straightforward array-of-closures implementation does.
    func remove(_ id: Int) {
        if let index = handlers.firstIndex(where: { $0.id == id }) {
            handlers.remove(at: index)
        }
    }

    func send(_ value: Value) {
        for entry in handlers {
            entry.handler(value)
        }
    }
}

/// A hand-written debounce input path: remember the value and when it arrived; a timer (not measured) would
/// deliver it later.
final class ManualDebounce<Value> {
    var pending: Value?
    var deadline: ContinuousClock.Instant
    let interval: Duration
    var timerRunning = false

    init(interval: Duration) {
        self.interval = interval
        deadline = .now
    }

    func receive(_ value: Value) {
        pending = value
        deadline = .now + interval
        if !timerRunning { timerRunning = true }
    }
}

/// A counter the closures under test write to, so the optimizer cannot remove the work.
final class Sink {
    var total = 0
}
