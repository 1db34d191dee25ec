import Foundation

@testable import Repose

/// Records log lines as `category: message`, from any thread.
final class RecordingLogHandler: Sendable {
    // Safe: `recorded` is only touched under `lock`.
    private let lock = NSLock()
    private nonisolated(unsafe) var recorded: [String] = []

    var lines: [String] { lock.withLock { recorded } }

    var handler: ReposeLog.MessageHandler {
        { [self] category, message in
            lock.withLock { recorded.append("\(category): \(message)") }
        }
    }
}
