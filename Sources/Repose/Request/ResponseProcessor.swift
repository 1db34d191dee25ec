import Foundation

/// Turns what the network delivered into a `Response`, off the main actor: HTTP error statuses become
/// failures, 304 is set aside for the resource to resolve, and everything else runs through the pipeline.
///
/// It runs once per response, in the provider's completion, before the single hop to the main actor: every
/// observer and hook then shares the parsed result, and a large body is never parsed on the main actor. A 304 is
/// not run through the pipeline again; the resource keeps the entity it already has.
struct ResponseProcessor: Sendable {
    enum Outcome {
        case response(Response)
        case notModified
    }

    let pipeline: Pipeline
    let now: @Sendable () -> TimeInterval
    /// The caches that successful responses are written to, with this resource's keys.
    var cacheTargets: [CacheTarget] = []

    func process(_ result: Result<NetworkResponse, any Error>) -> Outcome {
        let timestamp = now()
        switch result {
        case .failure(let error):
            return .response(
                .failure(
                    RequestError(
                        wrapping: error, fallbackMessage: NetworkErrorMessages.message(for: error), timestamp: timestamp
                    )))
        case .success(let raw) where raw.statusCode == 304:
            return .notModified
        case .success(let raw):
            let entity = Entity<Any>(response: raw, content: raw.body, timestamp: timestamp)
            if raw.statusCode >= 400 {
                let error = RequestError(httpStatusCode: raw.statusCode, entity: entity, timestamp: timestamp)
                return .response(pipeline.process(.failure(error)))
            }
            return .response(pipeline.process(.success(entity), caching: cacheTargets))
        }
    }
}
