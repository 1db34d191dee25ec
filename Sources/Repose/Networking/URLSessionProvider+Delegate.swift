import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSessionProvider {
    /// The delegate of a session the provider owns: collects each task's body, reports its progress and
    /// completes it, finding the task's state by its identifier.
    ///
    /// `@unchecked Sendable`: `transfers` is only touched under `lock`. Callbacks to Repose run after the lock is
    /// released, never under it.
    final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        typealias ProgressHandler = @Sendable (TransferProgress) -> Void

        private let lock = NSLock()
        private var transfers: [Int: Transfer] = [:]

        /// How many tasks have state here: started and not yet completed.
        var activeTransferCount: Int {
            lock.withLock { transfers.count }
        }

        func register(
            _ task: URLSessionTask,
            progress: @escaping ProgressHandler,
            completion: @escaping @Sendable (Result<NetworkResponse, any Error>) -> Void
        ) {
            let transfer = Transfer(progress: progress, completion: completion)
            lock.withLock { transfers[task.taskIdentifier] = transfer }
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
            totalBytesExpectedToSend: Int64
        ) {
            // `transfers[id]?.…` mutates the stored value in place: no copy of the state or the body.
            let update = lock.withLock {
                transfers[task.taskIdentifier]?.recordSent(totalBytesSent, expected: totalBytesExpectedToSend)
            }
            if let (sample, progress) = update.flatMap({ $0 }) {
                progress(sample)
            }
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let expected = dataTask.response?.expectedContentLength ?? -1
            let update = lock.withLock {
                transfers[dataTask.taskIdentifier]?.recordReceived(data, expected: expected)
            }
            if let (sample, progress) = update {
                progress(sample)
            }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            // Removing the state under the lock is what makes completion happen exactly once, cancelled or not.
            guard let transfer = lock.withLock({ transfers.removeValue(forKey: task.taskIdentifier) }) else { return }
            transfer.completion(URLSessionProvider.result(response: task.response, body: transfer.body, error: error))
        }
    }
}

extension URLSessionProvider.SessionDelegate {
    /// What the provider keeps for one task while it runs.
    struct Transfer {
        /// The most body bytes reserved up front on the word of a `Content-Length` header.
        private static let maximumReservation: Int64 = 16 * 1024 * 1024

        let progress: ProgressHandler
        let completion: @Sendable (Result<NetworkResponse, any Error>) -> Void
        private(set) var body = Data()
        private var sample = TransferProgress()

        init(
            progress: @escaping ProgressHandler,
            completion: @escaping @Sendable (Result<NetworkResponse, any Error>) -> Void
        ) {
            self.progress = progress
            self.completion = completion
        }

        /// Advances the upload progress; `nil` when there is nothing new to report, which keeps samples monotonic.
        mutating func recordSent(_ total: Int64, expected: Int64) -> (TransferProgress, ProgressHandler)? {
            guard total > sample.bytesSent else { return nil }
            sample.bytesSent = total
            if expected > 0 {
                sample.bytesExpectedToSend = max(expected, total)
            }
            return (sample, progress)
        }

        /// Adds a chunk of the body and advances the download progress.
        mutating func recordReceived(_ data: Data, expected: Int64) -> (TransferProgress, ProgressHandler) {
            if body.isEmpty {
                // The whole body often arrives at once: keep that chunk instead of copying it.
                body = data
                if expected > Int64(data.count) {
                    body.reserveCapacity(Int(min(expected, Self.maximumReservation)))
                }
            } else {
                body.append(data)
            }
            sample.bytesReceived += Int64(data.count)
            if expected >= 0 {
                sample.bytesExpectedToReceive = max(expected, sample.bytesReceived)
            }
            return (sample, progress)
        }
    }
}
