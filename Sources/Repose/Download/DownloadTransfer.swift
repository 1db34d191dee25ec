import Foundation

/// One attempt of a download, as the networking provider's callbacks see it, on whatever thread they arrive: the
/// status and headers, the body written to the file piece by piece, and the progress worth telling the main actor
/// about.
///
/// A success body goes to the file and is never held; an error's body (a 404's page, a 401's problem document) is
/// kept in memory up to `errorBodyLimit`, for the ``RequestError``'s entity, and the file is dropped.
///
/// Safe (`@unchecked Sendable`): every field is read and written under `lock`; the provider calls in order, from
/// one queue at a time.
final class DownloadTransfer: @unchecked Sendable {
    /// The most of an error response's body kept for its ``RequestError``.
    static let errorBodyLimit = 64 * 1024

    private let file: DownloadFile
    private let lock = NSLock()
    private var head: NetworkResponse?
    private var received: Int64 = 0
    private var expected: Int64?
    private var reportedBytes: Int64 = 0
    private var writeFailed = false
    /// The attempt's one outcome, once decided: the first write that fails decides it, before the body ends.
    private var outcome: Response?

    init(file: DownloadFile) {
        self.file = file
    }

    /// The status and headers arrived.
    func begin(_ response: NetworkResponse) {
        let length = response.headers.first { $0.key.lowercased() == "content-length" }.flatMap { Int64($0.value) }
        lock.withLock {
            head = response
            expected = length.flatMap { $0 > 0 ? $0 : nil }
        }
    }

    /// Whether a write to the file failed (a full disk): the transfer should stop now, with ``finish(error:timestamp:)``.
    var hasFailed: Bool { lock.withLock { writeFailed } }

    /// A piece of the body arrived: written to the file, or kept if the response is an error. Returns the progress
    /// to report, when it moved on by a percent or more (or by a mebibyte when the length is unknown): reporting
    /// every piece would hop to the main actor thousands of times for a large file.
    func append(_ data: Data) -> TransferProgress? {
        let isError = lock.withLock { (head?.statusCode ?? 200) >= 300 }
        if isError {
            lock.withLock {
                if var head, head.body.count < Self.errorBodyLimit {
                    head.body.append(data.prefix(Self.errorBodyLimit - head.body.count))
                    self.head = head
                }
            }
            return nil
        }
        let written = !hasFailed && file.append(data)
        return lock.withLock {
            if !written { writeFailed = true }
            received += Int64(data.count)
            let step = expected.map { Double($0) / 100 } ?? Double(1 << 20)
            guard Double(received - reportedBytes) >= step || received >= expected ?? .max else { return nil }
            reportedBytes = received
            return TransferProgress(bytesReceived: received, bytesExpectedToReceive: expected)
        }
    }

    /// The transfer ended with `error` (or `nil`), or a write failed: the file is moved into place for a success,
    /// removed otherwise. Only the first call decides; later ones return the same outcome.
    func finish(error: (any Error)?, timestamp: TimeInterval) -> Response {
        if let decided = lock.withLock({ outcome }) { return decided }
        let decided = decide(error: error, timestamp: timestamp)
        return lock.withLock {
            if outcome == nil { outcome = decided }
            return outcome ?? decided
        }
    }

    private func decide(error: (any Error)?, timestamp: TimeInterval) -> Response {
        let (head, writeFailed) = lock.withLock { (self.head, self.writeFailed) }
        if let error {
            file.discard()
            return .failure(NetworkErrorMessages.requestError(for: error, timestamp: timestamp))
        }
        guard let head else {
            file.discard()
            return .failure(
                NetworkErrorMessages.requestError(for: URLError(.badServerResponse), timestamp: timestamp))
        }
        if head.statusCode >= 300 {
            file.discard()
            let entity = Entity<Any>(response: head, content: head.body, timestamp: timestamp)
            return .failure(RequestError(httpStatusCode: head.statusCode, entity: entity, timestamp: timestamp))
        }
        do {
            if writeFailed {
                throw RequestError.Cause.DownloadFileFailed(fileURL: file.destination, errorNumber: file.writeError)
            }
            try file.finish()
        } catch {
            file.discard()
            let message = RequestError.displayMessage(for: error) ?? NetworkErrorMessages.generalMessage
            return .failure(RequestError(userMessage: message, cause: error, timestamp: timestamp))
        }
        var metadata = head
        metadata.body = Data()
        return .success(Entity<Any>(response: metadata, content: file.destination, timestamp: timestamp))
    }
}
