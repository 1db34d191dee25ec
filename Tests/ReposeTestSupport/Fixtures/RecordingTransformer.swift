import Foundation
import Repose

/// A transformer that records every response it sees, and where it ran, and optionally rewrites it.
final class RecordingTransformer: ResponseTransformer, @unchecked Sendable {
    // Safe: `log` and `threads` are only touched while holding `lock`.
    private let lock = NSLock()
    private var log: [String] = []
    private var places: [Bool] = []
    private let rewrite: @Sendable (Response) -> Response

    init(rewrite: @escaping @Sendable (Response) -> Response = { $0 }) {
        self.rewrite = rewrite
    }

    /// One entry per response: `success` or `failure <status>`.
    var seen: [String] { lock.withLock { log } }
    /// For each response, whether it was processed on the main queue (where the main actor runs).
    var ranOnMainQueue: [Bool] { lock.withLock { places } }

    func process(_ response: Response) -> Response {
        let entry: String
        switch response {
        case .success: entry = "success"
        case .failure(let error): entry = "failure \(error.httpStatusCode.map(String.init) ?? "-")"
        }
        let isMain = MainQueueProbe.isCurrent
        lock.withLock {
            log.append(entry)
            places.append(isMain)
        }
        return rewrite(response)
    }
}
