import Foundation
import Repose

/// A custom request delegate that does nothing until the test broadcasts through the handler it was given.
@MainActor
final class ManualRequestDelegate: RequestDelegate {
    private(set) var handler: RequestCompletionHandler?
    private(set) var startCount = 0
    private(set) var cancelCount = 0

    func startUnderlyingOperation(passingResponseTo completionHandler: RequestCompletionHandler) {
        startCount += 1
        handler = completionHandler
    }

    func cancelUnderlyingOperation() {
        cancelCount += 1
    }

    func repeated() -> any RequestDelegate {
        ManualRequestDelegate()
    }

    var requestDescription: String { "manual" }
}

/// Lets queued main-actor work run until `condition` holds, a bounded number of times so that a broken
/// expectation fails instead of hanging.
@MainActor
func yieldUntil(_ condition: () -> Bool) async {
    for _ in 0..<1000 where !condition() {
        await Task.yield()
    }
}
