import Foundation

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
