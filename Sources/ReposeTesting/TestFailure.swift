import Foundation

#if canImport(Testing)
import Testing
#endif

/// Where in a test something was called, so that a failure points at the test's line instead of at this library.
struct CallSite: Sendable {
    var fileID: String
    var filePath: String
    var line: Int
    var column: Int
}

/// Records test failures with Swift Testing, where it is available; elsewhere the error a request completes with
/// is the only report.
enum TestFailure {
    /// Records a failure of the running test.
    ///
    /// Call it on the test's own task (synchronously from the code under test), so that Swift Testing knows which
    /// test failed and `withKnownIssue` can expect it.
    static func record(_ message: String, at site: CallSite? = nil) {
        #if canImport(Testing)
        if let site {
            let location = SourceLocation(
                fileID: site.fileID, filePath: site.filePath, line: site.line, column: site.column)
            Issue.record(Comment(rawValue: message), sourceLocation: location)
        } else {
            Issue.record(Comment(rawValue: message))
        }
        #endif
    }
}

/// A wait that ends either when its condition is met or when its time runs out, whichever comes first.
final class TimedWait: @unchecked Sendable {
    // `@unchecked Sendable`: `continuation` is only touched under `lock`.
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Bool, Never>?

    /// Whether the wait is over, either way.
    var isFinished: Bool {
        lock.withLock { continuation == nil }
    }

    /// Suspends until ``finish(_:)`` is called or `timeout` passes.
    ///
    /// - Parameter register: Called synchronously with the wait; returns `true` if the condition already holds,
    ///   else keeps the wait somewhere that calls `finish(true)` once it does.
    /// - Returns: `true` if the condition was met, `false` if the time ran out.
    static func until(timeout: Duration, register: (TimedWait) -> Bool) async -> Bool {
        await withCheckedContinuation { continuation in
            let wait = TimedWait()
            wait.continuation = continuation
            if register(wait) {
                wait.finish(true)
                return
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout.dispatchInterval) { wait.finish(false) }
        }
    }

    /// Ends the wait; later calls do nothing.
    func finish(_ satisfied: Bool) {
        let pending = lock.withLock {
            defer { continuation = nil }
            return continuation
        }
        pending?.resume(returning: satisfied)
    }
}

extension Duration {
    /// This duration for Dispatch, in whole nanoseconds; negative durations count as zero.
    var dispatchInterval: DispatchTimeInterval {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return .nanoseconds(0) }
        let nanoseconds = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !nanoseconds.overflow, nanoseconds.partialValue < Int64(Int.max) - 1_000_000_000 else { return .never }
        return .nanoseconds(Int(nanoseconds.partialValue + attoseconds / 1_000_000_000))
    }
}
