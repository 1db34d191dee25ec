import Foundation

// The lines Repose logs about resources and requests; kept here so that each call site stays one line.

extension Resource {
    /// Why `loadIfNeeded()` is about to load or not, for the `staleness` category. Mirrors `isUpToDate`.
    var loadDecisionLogLine: String {
        let subject = logName
        if !loadRequests.isEmpty { return "\(subject): a load is already in flight; not loading again" }
        if record.isInvalidated { return "\(subject): invalidated; loading" }
        guard record.latestData != nil || record.latestError != nil else {
            return "\(subject): no data yet; loading"
        }
        let (what, limitName, limit) =
            record.latestError == nil
            ? ("data", "expirationTime", timing.expirationTime)
            : ("error", "retryTime", timing.retryTime)
        let verdict = isUpToDate ? "up to date; not loading" : "stale; loading"
        let age = core.now() - timestamp
        return "\(subject): \(what) is \(seconds(age)) old, \(limitName) is \(seconds(limit)); \(verdict)"
    }

    /// The resource's state, for the `stateChanges` category.
    var stateLogLine: String {
        let data = record.latestData.map { "data \($0.contentType) (\(type(of: $0.content)))" } ?? "no data"
        let error = record.latestError.map { "error " + ReposeLog.summary(of: $0) } ?? "no error"
        return "\(logName): \(data), \(error), \(isLoading ? "loading" : "not loading")"
    }

    private func seconds(_ value: TimeInterval) -> String {
        String(format: "%.1fs", value)
    }
}

extension ResponseProcessor.Outcome {
    /// How a request ended, for the `network` category.
    var logSummary: String {
        switch self {
        case .notModified: "304 not modified"
        case .response(.success(let entity)): "succeeded, \(entity.contentType)"
        case .response(.failure(let error)) where error.isCancellation: "cancelled"
        case .response(.failure(let error)): "failed: " + ReposeLog.summary(of: error)
        }
    }
}

extension ReposeLog {
    /// An error as log lines show it: its status and its message, with any URL in the message redacted.
    static func summary(of error: RequestError) -> String {
        (error.httpStatusCode.map { "\($0) " } ?? "") + redactingURLs(in: error.userMessage).debugDescription
    }
}

extension ReposeLog {
    /// A response or an entity as log lines show it: `text/plain (String)`, or the error's summary.
    static func summary(of response: Response) -> String {
        switch response {
        case .success(let entity): "\(entity.contentType) (\(type(of: entity.content)))"
        case .failure(let error): "error " + summary(of: error)
        }
    }
}
