import Testing

/// Yields the main actor until `condition` holds, for as long as tests running in parallel need, recording an issue
/// if it never does.
@MainActor
func waitUntil(_ condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async {
    for _ in 0..<100_000 where !condition() {
        await Task.yield()
    }
    if !condition() { Issue.record("the condition never held", sourceLocation: sourceLocation) }
}
