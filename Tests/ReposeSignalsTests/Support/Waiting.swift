import Dispatch
import Testing

/// Yields the main actor until `condition` holds: no sleeping, and bounded. If the condition does not hold within
/// `limit`, it records an issue and returns `false`, so that the test ends failed instead of hanging.
@MainActor
func waitUntil(
    within limit: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () -> Bool
) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: limit)
    while !condition() {
        guard clock.now < deadline else {
            Issue.record("the condition did not hold within \(limit)", sourceLocation: sourceLocation)
            return false
        }
        await Task.yield()
    }
    return true
}

/// A flag and a count that code running anywhere (an `onChange` handler, an `AsyncStream`'s termination) can set.
final class SharedCounter: @unchecked Sendable {
    // Safe: `value` is only touched while holding `lock`.
    private let lock = DispatchSemaphoreLock()
    private var value = 0

    func increment() { lock.withLock { value += 1 } }
    var count: Int { lock.withLock { value } }
}

/// A lock for the test doubles above, from Dispatch so that the tests need nothing the library does not.
final class DispatchSemaphoreLock: Sendable {
    private let semaphore = DispatchSemaphore(value: 1)

    func withLock<T>(_ body: () -> T) -> T {
        semaphore.wait()
        defer { semaphore.signal() }
        return body()
    }
}
