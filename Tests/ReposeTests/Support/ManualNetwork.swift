import Foundation
import Repose

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A networking provider whose requests stay in flight until the test answers them, so that in-flight states
/// can be checked without timing.
final class ManualNetwork: NetworkingProvider, @unchecked Sendable {
    // Safe: the pending list is only touched under the lock, and callbacks are invoked outside it.
    final class Pending: @unchecked Sendable {
        let request: URLRequest
        let progress: @Sendable (TransferProgress) -> Void
        let completion: @Sendable (Result<NetworkResponse, any Error>) -> Void
        var isCancelled = false

        init(
            request: URLRequest, progress: @escaping @Sendable (TransferProgress) -> Void,
            completion: @escaping @Sendable (Result<NetworkResponse, any Error>) -> Void
        ) {
            self.request = request
            self.progress = progress
            self.completion = completion
        }
    }

    private struct Task: NetworkingTask {
        let pending: Pending
        let network: ManualNetwork
        func cancel() { network.cancel(pending) }
    }

    private let lock = NSLock()
    private var pending: [Pending] = []
    private(set) var sent: [URLRequest] = []
    private(set) var cancelledCount = 0

    func startRequest(
        _ request: URLRequest, progress: @escaping @Sendable (TransferProgress) -> Void,
        completion: @escaping @Sendable (Result<NetworkResponse, any Error>) -> Void
    ) -> any NetworkingTask {
        let entry = Pending(request: request, progress: progress, completion: completion)
        lock.withLock {
            pending.append(entry)
            sent.append(request)
        }
        return Task(pending: entry, network: self)
    }

    private func cancel(_ entry: Pending) {
        lock.withLock {
            entry.isCancelled = true
            cancelledCount += 1
            hasCancelledEntries = true
        }
    }

    /// Whether `pending` holds cancelled entries: they are dropped in one pass when the list is next read, so that
    /// cancelling 10,000 requests in any order stays linear.
    private var hasCancelledEntries = false

    /// Drops the cancelled entries from `pending`. Called under `lock`, before every read of the list.
    private func dropCancelled() {
        guard hasCancelledEntries else { return }
        pending.removeAll { $0.isCancelled }
        hasCancelledEntries = false
    }

    var pendingCount: Int {
        lock.withLock {
            dropCancelled()
            return pending.count
        }
    }

    /// The oldest request still waiting for an answer.
    var oldestPending: URLRequest? {
        lock.withLock {
            dropCancelled()
            return pending.first?.request
        }
    }

    /// Answers the oldest pending request.
    func respond(
        status: Int = 200, headers: [String: String] = [:], body: Data = Data()
    ) {
        take()?.completion(.success(NetworkResponse(statusCode: status, headers: headers, body: body)))
    }

    func respond(status: Int = 200, contentType: String, text: String, headers: [String: String] = [:]) {
        var all = headers
        all["Content-Type"] = contentType
        respond(status: status, headers: all, body: Data(text.utf8))
    }

    /// Answers the pending request at `index`, 0 being the oldest still pending.
    func respond(toPendingAt index: Int, status: Int = 200, headers: [String: String] = [:], body: Data = Data()) {
        let entry = lock.withLock {
            dropCancelled()
            return index < pending.count ? pending.remove(at: index) : nil
        }
        entry?.completion(.success(NetworkResponse(statusCode: status, headers: headers, body: body)))
    }

    /// Fails the oldest pending request with a transport error.
    func fail(with error: any Error) {
        take()?.completion(.failure(error))
    }

    /// Reports progress on the oldest pending request without answering it.
    func reportProgress(_ progress: TransferProgress) {
        lock.withLock {
            dropCancelled()
            return pending.first
        }?.progress(progress)
    }

    /// Fails every request still pending with a cancellation, as a network that went away would.
    func failPending() {
        let abandoned = lock.withLock {
            defer { pending.removeAll() }
            dropCancelled()
            return pending
        }
        for entry in abandoned {
            entry.completion(.failure(URLError(.cancelled)))
        }
    }

    private func take() -> Pending? {
        lock.withLock {
            dropCancelled()
            return pending.isEmpty ? nil : pending.removeFirst()
        }
    }
}
