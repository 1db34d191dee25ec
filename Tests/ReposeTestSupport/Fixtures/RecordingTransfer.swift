import Foundation
import Repose
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Records what a networking provider reports for one request (progress samples, completions) and lets a test
/// await a state with a time bound: a wait that runs out records an issue instead of hanging the run.
final class RecordingTransfer: @unchecked Sendable {
    // `@unchecked Sendable`: every stored property is only touched under `lock`.

    private let lock = NSLock()
    private var samples: [TransferProgress] = []
    private var results: [Result<NetworkResponse, any Error>] = []
    private var waiters: [Waiter] = []

    private struct Waiter {
        let isSatisfied: (RecordingTransfer) -> Bool
        let resume: @Sendable (Bool) -> Void
    }

    /// How long a wait may take before it records an issue. Generous: a bound against hanging, not a speed check.
    /// Deliveries go through the main queue, which the rest of the suite, running in parallel on a small machine
    /// (sanitizers included), can keep busy for many seconds.
    static let patience = Patience.wait

    /// Starts `request` on `provider`, recording what it reports.
    static func send(_ request: URLRequest, to provider: any NetworkingProvider) -> RecordingTransfer {
        let recording = RecordingTransfer()
        _ = provider.startRequest(request, progress: recording.progress, completion: recording.completion)
        return recording
    }

    /// The closure to pass as a provider's `progress`.
    var progress: @Sendable (TransferProgress) -> Void {
        { [self] sample in record { $0.samples.append(sample) } }
    }

    /// The closure to pass as a provider's `completion`.
    var completion: @Sendable (Result<NetworkResponse, any Error>) -> Void {
        { [self] result in record { $0.results.append(result) } }
    }

    /// The progress samples so far, in the order they arrived.
    var progressSamples: [TransferProgress] {
        lock.withLock { samples }
    }

    /// How many times the completion was called so far.
    var completionCount: Int {
        lock.withLock { results.count }
    }

    /// Waits for the completion and returns its result; `nil`, with an issue recorded, if it did not come in time.
    func result(
        within timeout: Duration = RecordingTransfer.patience, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> Result<NetworkResponse, any Error>? {
        guard await wait(within: timeout, sourceLocation: sourceLocation, until: { !$0.results.isEmpty }) else {
            return nil
        }
        return lock.withLock { results.first }
    }

    /// Waits for the response and returns it; `nil`, with an issue recorded, on an error or a timeout.
    func response(
        within timeout: Duration = RecordingTransfer.patience, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> NetworkResponse? {
        switch await result(within: timeout, sourceLocation: sourceLocation) {
        case .success(let response):
            return response
        case .failure(let error):
            Issue.record("expected a response, got the error \(error)", sourceLocation: sourceLocation)
            return nil
        case nil:
            return nil
        }
    }

    /// Waits for the transport error and returns it; `nil`, with an issue recorded, on a response or a timeout.
    func error(
        within timeout: Duration = RecordingTransfer.patience, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> (any Error)? {
        switch await result(within: timeout, sourceLocation: sourceLocation) {
        case .success(let response):
            Issue.record("expected an error, got status \(response.statusCode)", sourceLocation: sourceLocation)
            return nil
        case .failure(let error):
            return error
        case nil:
            return nil
        }
    }

    /// Waits until some body bytes have arrived; `false`, with an issue recorded, if they did not in time.
    @discardableResult
    func firstBytesReceived(
        within timeout: Duration = RecordingTransfer.patience, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> Bool {
        await wait(within: timeout, sourceLocation: sourceLocation) { recording in
            recording.samples.contains { $0.bytesReceived > 0 }
        }
    }

    private func record(_ change: (RecordingTransfer) -> Void) {
        let satisfied: [Waiter] = lock.withLock {
            change(self)
            let (done, pending) = waiters.reduce(into: ([Waiter](), [Waiter]())) { split, waiter in
                if waiter.isSatisfied(self) { split.0.append(waiter) } else { split.1.append(waiter) }
            }
            waiters = pending
            return done
        }
        for waiter in satisfied {
            waiter.resume(true)
        }
    }

    private func wait(
        within timeout: Duration, sourceLocation: SourceLocation,
        until isSatisfied: @escaping (RecordingTransfer) -> Bool
    ) async -> Bool {
        let satisfied = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let once = ResumeOnce(continuation)
            let alreadySatisfied = lock.withLock {
                if isSatisfied(self) { return true }
                waiters.append(Waiter(isSatisfied: isSatisfied, resume: once.resume))
                return false
            }
            if alreadySatisfied {
                once.resume(true)
                return
            }
            let (seconds, attoseconds) = timeout.components
            let delay = Double(seconds) + Double(attoseconds) / 1e18
            DispatchQueue.global().asyncAfter(deadline: .now() + delay) { once.resume(false) }
        }
        if !satisfied {
            Issue.record("timed out after \(timeout) waiting for the provider", sourceLocation: sourceLocation)
        }
        return satisfied
    }
}

/// Resumes a continuation the first time it is asked to, and ignores later calls.
final class ResumeOnce: @unchecked Sendable {
    // `@unchecked Sendable`: `continuation` is only touched under `lock`.
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Bool, Never>?

    init(_ continuation: CheckedContinuation<Bool, Never>) {
        self.continuation = continuation
    }

    func resume(_ value: Bool) {
        let pending = lock.withLock {
            defer { continuation = nil }
            return continuation
        }
        pending?.resume(returning: value)
    }
}
