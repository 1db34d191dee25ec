import Foundation

/// Decodes a `Decodable` model straight from a successful response's bytes, taking the place of the parsing
/// stage for the resources it is configured for.
///
/// Successes never go through the JSON dictionary parse: `JSONDecoder` reads the bytes itself, which is faster
/// than building dictionaries first and then walking them. Failures go through the transformers the parsing stage
/// had before (`errorBodies`), so an error body still becomes `latestError.jsonDict` where the JSON transformer is
/// installed.
struct ModelDecodingTransformer<Model: Decodable>: ResponseTransformer, CustomStringConvertible {
    /// Safe: `JSONDecoder` only reads its settings while decoding, and Repose never changes them; older Apple
    /// SDKs do not declare it `Sendable`.
    struct SharedDecoder: @unchecked Sendable {
        let decoder: JSONDecoder
    }

    let shared: SharedDecoder
    let errorBodies: PipelineStage

    init(decoder: JSONDecoder, errorBodies: PipelineStage) {
        self.shared = SharedDecoder(decoder: decoder)
        self.errorBodies = errorBodies
    }

    var description: String { "decode \(Model.self)" }

    func process(_ response: Response) -> Response {
        switch response {
        case .failure:
            return errorBodies.process(response)
        case .success(let entity):
            return decode(entity)
        }
    }

    private func decode(_ entity: Entity<Any>) -> Response {
        do {
            return .success(entity.withContent(try Self.decode(entity, decoder: shared.decoder) as Any))
        } catch {
            return .failure(error)
        }
    }

    /// Decodes `entity`'s bytes or text (or `bytes`, when given in their place) as `Model`; content that already is
    /// a `Model` is kept. Every failure is a ``RequestError`` that keeps the entity. Paged lists decode with it too.
    static func decode(_ entity: Entity<Any>, bytes: Data? = nil, decoder: JSONDecoder) throws(RequestError) -> Model {
        let data: Data
        switch bytes ?? entity.content {
        case let bytes as Data:
            data = bytes
        case let text as String:
            data = Data(text.utf8)
        case let model as Model:
            return model
        default:
            let cause = RequestError.Cause.WrongInputTypeInTranformerPipeline(
                expectedType: Data.self, actualType: type(of: entity.content), transformer: "decode \(Model.self)")
            throw RequestError.cannotParseResponse(cause: cause, entity: entity)
        }
        do {
            return try decoder.decode(Model.self, from: data)
        } catch let error as RequestError {
            throw error
        } catch {
            let cause = RequestError.Cause.ModelDecodingFailed(
                modelType: Model.self, codingPath: Self.codingPath(of: error), underlying: error)
            throw RequestError.cannotParseResponse(cause: cause, entity: entity)
        }
    }

    /// Where decoding stopped, as a path a person can read: `users[2].email`. Empty for the top level or for
    /// errors that are not `DecodingError`s.
    static func codingPath(of error: any Error) -> String {
        guard let error = error as? DecodingError else { return "" }
        switch error {
        case .keyNotFound(let key, let context):
            return format(context.codingPath + [key])
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return format(context.codingPath)
        @unknown default:
            return ""
        }
    }

    static func format(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return text
    }
}

/// Decodes `entity` as `Model`, as a transformer that `content(as:)` adds would: for modules that build on Repose
/// (a paged list reads its pages' items with it) without a transformer of their own.
package func decodeModel<Model: Decodable>(
    _ type: Model.Type, from entity: Entity<Any>, bytes: Data? = nil, decoder: JSONDecoder
) throws(RequestError) -> Model {
    try ModelDecodingTransformer<Model>.decode(entity, bytes: bytes, decoder: decoder)
}
