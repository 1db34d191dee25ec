import Dispatch

/// Waits until `condition` holds, checking it after each round trip through another queue and the main queue, for
/// state that another thread settles on its own time (a provider forgetting a finished transfer, say); `false` if it
/// still does not hold after `timeout`. A bound against hanging, not a delay that decides the outcome.
@MainActor
func eventually(within timeout: Duration = Patience.wait, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        await withCheckedContinuation { (turn: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                DispatchQueue.main.async { turn.resume() }
            }
        }
    }
    return true
}
