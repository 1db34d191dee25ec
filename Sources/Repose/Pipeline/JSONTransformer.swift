import Foundation

/// The standard JSON transformer (rules F7–F10): a `Data` body, or a `String` one (`text/json`, which the text
/// transformer decodes first), becomes `[String: Any]` or `[Any]`; error bodies too.
///
/// What `ResponseContentTransformer<Any, Any>` with `transformErrors` would do, written out: that generic path
/// casts the content to `Any` and builds an entity for the processor and another for its output, on every
/// response. Here the entity is copied once, with the parsed content put in place.
struct JSONTransformer: ResponseTransformer, CustomStringConvertible {
    var description: String { "JSON" }

    func process(_ response: Response) -> Response {
        switch response {
        case .success(let entity):
            return parse(entity)
        case .failure(let error):
            // An error body that fails to parse leaves the original error in place.
            guard let body = error.entity, case .success(let parsed) = parse(body) else { return response }
            var result = error
            result.entity = parsed
            return .failure(result)
        }
    }

    private func parse(_ entity: Entity<Any>) -> Response {
        let parsed: Any
        do {
            switch entity.content {
            case let data as Data:
                parsed = try StandardTransformer.withBody(entity) { try JSONParsing.parse(data) }
            case let text as String:
                parsed = try StandardTransformer.withBody(entity) { try JSONParsing.parse(Data(text.utf8)) }
            default:
                let cause = RequestError.Cause.WrongInputTypeInTranformerPipeline(
                    expectedType: Data.self, actualType: type(of: entity.content), transformer: description)
                return .failure(RequestError.cannotParseResponse(cause: cause, entity: entity))
            }
        } catch let error as RequestError {
            return .failure(error)
        } catch {
            return .failure(RequestError.cannotParseResponse(cause: error, entity: entity))
        }
        var result = entity
        result.content = parsed
        return .success(result)
    }
}
