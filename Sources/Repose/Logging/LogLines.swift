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

/// The lines about one response: its details (`networkDetails`), what each pipeline stage made of it
/// (`pipeline`) and what was written to the caches (`cache`).
///
/// The handlers are chosen when the request starts, on the task that starts it, and carried with the response.
/// The response is processed on whatever thread the networking provider delivers it on, where a task-scoped
/// override (`ReposeLog.withEnabled`) cannot be seen; choosing early keeps a request's lines in the scope that
/// started it. With every one of these categories off, `init` returns `nil` after one gate check, and the
/// response pays nothing more.
struct ResponseLog: Sendable {
    private let subject: String
    private let details: ReposeLog.MessageHandler?
    private let pipeline: ReposeLog.MessageHandler?
    private let cache: ReposeLog.MessageHandler?

    init?(method: RequestMethod, url: URL) {
        // One gate check while all three are off, the usual case; three only when some line will be written.
        guard LogSettings.handler(for: [.networkDetails, .pipeline, .cache]) != nil else { return nil }
        details = LogSettings.handler(for: .networkDetails)
        pipeline = LogSettings.handler(for: .pipeline)
        cache = LogSettings.handler(for: .cache)
        guard details != nil || pipeline != nil || cache != nil else { return nil }
        subject = "\(method.rawValue) \(ReposeLog.describe(url: url))"
    }

    /// `GET https://… ← 200, 2 bytes [Content-Type: "text/plain"]`, or the transport error.
    func received(_ result: Result<NetworkResponse, any Error>) {
        guard let details else { return }
        switch result {
        case .success(let response):
            details(.networkDetails, "\(subject) ← " + ReposeLog.describe(response))
        case .failure(let error):
            details(.networkDetails, "\(subject) ← transport error: " + ReposeLog.redactingURLs(in: "\(error)"))
        }
    }

    /// What a stage made of the response, and whether its output went to a cache.
    func stage(_ key: PipelineStageKey, ranTransformers: Bool, result: Response, cachedIn targets: [CacheTarget]) {
        if ranTransformers, let pipeline {
            pipeline(.pipeline, "\(subject): \(key) → \(ReposeLog.summary(of: result))")
        }
        if let cache, case .success = result, targets.contains(where: { $0.stage == key }) {
            cache(.cache, "\(subject): \(key) output written to the cache")
        }
    }
}

extension ReposeLog {
    /// What the `configuration` line for a change ends with.
    static let recomputeNotice = "resources recompute their configuration"
}

extension ServiceCore {
    /// Which entries a resource's configuration came from, for the `configuration` category:
    /// `GET https://…/users/1: built from "standard transformers: text, JSON", "/users/*"`.
    func configurationLogLine(_ url: URL, _ method: RequestMethod, entries: [Int], shared: Bool) -> String {
        // An entry made for one resource is described by that resource's URL, so its secrets are hidden too.
        let names = entries.map { ReposeLog.redactingURLs(in: configurationEntries[$0].description).debugDescription }
        let source = names.isEmpty ? "no entries" : names.joined(separator: ", ")
        return "\(method.rawValue) \(ReposeLog.describe(url: url)): \(shared ? "shared, from" : "built from") \(source)"
    }
}
