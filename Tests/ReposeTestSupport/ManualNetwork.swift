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

    /// Runs `body` on the live pending requests, oldest first, under `lock`: the one way the list is read or
    /// changed, so the cancelled entries are always dropped first.
    private func withLivePending<T>(_ body: (inout [Pending]) -> T) -> T {
        lock.withLock {
            if hasCancelledEntries {
                pending.removeAll { $0.isCancelled }
                hasCancelledEntries = false
            }
            return body(&pending)
        }
    }

    var pendingCount: Int { withLivePending { $0.count } }

    /// The oldest request still waiting for an answer.
    var oldestPending: URLRequest? { withLivePending { $0.first?.request } }

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

    /// Answers the oldest pending request with `response` as it is.
    func respond(with response: NetworkResponse) {
        take()?.completion(.success(response))
    }

    /// Answers the pending request at `index`, 0 being the oldest still pending.
    func respond(toPendingAt index: Int, status: Int = 200, headers: [String: String] = [:], body: Data = Data()) {
        let entry = withLivePending { index < $0.count ? $0.remove(at: index) : nil }
        entry?.completion(.success(NetworkResponse(statusCode: status, headers: headers, body: body)))
    }

    /// Fails the oldest pending request with a transport error.
    func fail(with error: any Error) {
        take()?.completion(.failure(error))
    }

    /// Reports progress on the oldest pending request without answering it.
    func reportProgress(_ progress: TransferProgress) {
        withLivePending { $0.first }?.progress(progress)
    }

    /// Fails every request still pending with a cancellation, as a network that went away would.
    func failPending() {
        let abandoned = withLivePending { live in
            defer { live.removeAll() }
            return live
        }
        for entry in abandoned {
            entry.completion(.failure(URLError(.cancelled)))
        }
    }

    private func take() -> Pending? {
        withLivePending { $0.isEmpty ? nil : $0.removeFirst() }
    }
}
