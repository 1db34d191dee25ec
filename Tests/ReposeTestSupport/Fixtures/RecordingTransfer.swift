import Foundation
import Repose
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Records what a networking provider hands a sink for one request (the head, the body's pieces, progress samples,
/// the end) and lets a test await a state with a time bound: a wait that runs out records an issue instead of
/// hanging the run.
final class RecordingTransfer: ResponseSink, @unchecked Sendable {
    // `@unchecked Sendable`: every stored property is only touched under `lock`.

    private let lock = NSLock()
    private var head: NetworkResponse?
    private var body = Data()
    private var pieces: [Int] = []
    private var samples: [TransferProgress] = []
    private var results: [Result<NetworkResponse, any Error>] = []
    private var waiters: [Waiter] = []
    /// Refuses the body once this many bytes of it came, as a sink with a size limit does.
    private let limit: Int?

    private struct Waiter {
        let isSatisfied: (RecordingTransfer) -> Bool
        let resume: @Sendable (Bool) -> Void
    }

    /// How long a wait may take before it records an issue. Generous: a bound against hanging, not a speed check.
    /// The rest of the suite, running in parallel on a small machine (sanitizers included), can keep the provider's
    /// queues busy for many seconds.
    static let patience = Patience.wait

    init(refusingPast limit: Int? = nil) {
        self.limit = limit
    }

    /// Starts `request` on `provider`, recording what it hands over.
    static func send(
        _ request: URLRequest, to provider: any NetworkingProvider, refusingPast limit: Int? = nil
    ) -> RecordingTransfer {
        let recording = RecordingTransfer(refusingPast: limit)
        _ = provider.startTransfer(request, into: recording)
        return recording
    }

    func receive(_ response: NetworkResponse) -> Bool {
        record { $0.head = response }
        return true
    }

    func receive(_ bytes: Data) -> Bool {
        var isWithinLimit = true
        record {
            $0.body.append(bytes)
            $0.pieces.append(bytes.count)
            if let limit = $0.limit, $0.body.count > limit {
                isWithinLimit = false
                $0.results.append(.failure(RequestError.Cause.ResponseTooLarge(maximumSize: limit)))
            }
        }
        return isWithinLimit
    }

    func progress(_ sample: TransferProgress) {
        record { $0.samples.append(sample) }
    }

    func finish(_ error: (any Error)?, connection: ConnectionMetrics?, isFromCache: Bool) {
        record { recording in
            if let error {
                recording.results.append(.failure(error))
            } else if var response = recording.head {
                response.body = recording.body
                response.connection = connection
                response.isFromCache = isFromCache
                recording.results.append(.success(response))
            } else {
                recording.results.append(.failure(URLError(.badServerResponse)))
            }
        }
    }

    /// The progress samples so far, in the order they arrived.
    var progressSamples: [TransferProgress] {
        lock.withLock { samples }
    }

    /// The sizes of the body's pieces so far, in the order they arrived.
    var pieceSizes: [Int] {
        lock.withLock { pieces }
    }

    /// The status and headers, once they arrived.
    var receivedResponse: NetworkResponse? {
        lock.withLock { head }
    }

    /// How many times the transfer ended so far.
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
        await wait(within: timeout, sourceLocation: sourceLocation) { !$0.body.isEmpty }
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
