import Foundation
import Repose

/// A transformer that records every response it sees, and where it ran, and optionally rewrites it.
final class RecordingTransformer: ResponseTransformer, @unchecked Sendable {
    // Safe: `log` and `threads` are only touched while holding `lock`.
    private let lock = NSLock()
    private var log: [String] = []
    private var threads: [Bool] = []
    private let rewrite: @Sendable (Response) -> Response

    init(rewrite: @escaping @Sendable (Response) -> Response = { $0 }) {
        self.rewrite = rewrite
    }

    /// One entry per response: `success` or `failure <status>`.
    var seen: [String] { lock.withLock { log } }
    /// For each response, whether it was processed on the main thread.
    var ranOnMainThread: [Bool] { lock.withLock { threads } }

    func process(_ response: Response) -> Response {
        let entry: String
        switch response {
        case .success: entry = "success"
        case .failure(let error): entry = "failure \(error.httpStatusCode.map(String.init) ?? "-")"
        }
        let isMain = Thread.isMainThread
        lock.withLock {
            log.append(entry)
            threads.append(isMain)
        }
        return rewrite(response)
    }
}
