import Testing

/// Yields the main actor until `condition` holds, for at most `timeout` of real time; records an issue, and returns
/// `false`, if it never does.
///
/// Bounded by time, not by a count of turns: what the condition waits for may run on another thread (a response, a
/// cache's queue), which a loaded machine can keep from running while the main actor turns thousands of times.
@MainActor
@discardableResult
func waitUntil(
    within timeout: Duration = Patience.wait, sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () -> Bool
) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("the condition never held within \(timeout)", sourceLocation: sourceLocation)
            return false
        }
        await Task.yield()
    }
    return true
}
