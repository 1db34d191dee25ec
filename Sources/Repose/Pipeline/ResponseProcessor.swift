import Foundation

/// Turns what the network delivered into a `Response`: HTTP error statuses become failures, 304 is set aside for
/// the resource to resolve, and everything else runs through the pipeline.
///
/// A network request runs it once per response, before its hop to the main actor, so every observer and hook shares
/// the parsed result; an event stream runs it on an event's data. A 304 is not run through the pipeline again: the
/// resource keeps the entity it already has.
struct ResponseProcessor: Sendable {
    enum Outcome {
        case response(Response)
        /// A 304, with its headers: they update the stored entity's (RFC 9111 §4.3.4, rule W4).
        case notModified(headers: [String: String])
    }

    let pipeline: Pipeline
    let now: @Sendable () -> TimeInterval
    /// The caches that successful responses are written to, with this resource's keys.
    var cacheTargets: [CacheTarget] = []
    /// The lines about this response, when a category that shows them is on.
    var log: ResponseLog?

    /// Bodies up to this size are parsed on the main actor as their outcome is delivered, larger ones on a queue of
    /// their own first: parsing a body this small costs about what the thread wake-ups of a hop cost, a much larger
    /// one would hold the main actor.
    static let mainQueueBodyLimit = 1024

    /// Whether processing `raw` may take long enough, or touch caches (rule H14), so that it must stay off the main
    /// actor.
    func isCostly(_ raw: NetworkResponse) -> Bool {
        raw.body.count > Self.mainQueueBodyLimit || !cacheTargets.isEmpty
    }

    /// Processes `result` on the calling thread.
    func process(_ result: Result<NetworkResponse, any Error>) -> Outcome {
        let timestamp = now()
        log?.received(result)
        switch result {
        case .failure(let error):
            return .response(.failure(NetworkErrorMessages.requestError(for: error, timestamp: timestamp)))
        case .success(let raw) where raw.statusCode == 304:
            return .notModified(headers: raw.headers)
        case .success(let raw):
            let entity = Entity<Any>(response: raw, content: raw.body, timestamp: timestamp)
            if raw.statusCode >= 400 {
                let error = RequestError(httpStatusCode: raw.statusCode, entity: entity, timestamp: timestamp)
                return .response(Self.stamped(runPipeline(.failure(error), caching: []), timestamp))
            }
            return .response(
                Self.stamped(runPipeline(.success(entity), caching: storableTargets(for: entity)), timestamp))
        }
    }

    /// The caches this response may be written to: none when the server forbids storing it (rule K6), and then
    /// what they hold for the resource goes too, since it is no longer what the server would have kept.
    private func storableTargets(for entity: Entity<Any>) -> [CacheTarget] {
        guard !cacheTargets.isEmpty, CacheControl(entity.header(forKey: "Cache-Control")).forbidsStoring else {
            return cacheTargets
        }
        for target in cacheTargets {
            target.remove()
        }
        return []
    }

    private func runPipeline(_ response: Response, caching targets: [CacheTarget]) -> Response {
        guard let log else { return pipeline.process(response, caching: targets) }
        return pipeline.process(response, caching: targets) { stage, ranTransformers, result in
            log.stage(stage, ranTransformers: ranTransformers, result: result, cachedIn: targets)
        }
    }

    /// `response` with the time it arrived: transformers make new entities and errors without knowing the time.
    private static func stamped(_ response: Response, _ timestamp: TimeInterval) -> Response {
        switch response {
        case .success(var entity):
            entity.timestamp = timestamp
            return .success(entity)
        case .failure(var error):
            error.timestamp = timestamp
            return .failure(error)
        }
    }
}
