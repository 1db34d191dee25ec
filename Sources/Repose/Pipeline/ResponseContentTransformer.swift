import Foundation

/// What a ``ResponseContentTransformer`` does with content of a type it does not accept (rule F16).
public enum InputTypeMismatchAction: Sendable, Hashable {
    /// Fail the response with ``RequestError/Cause/WrongInputTypeInTranformerPipeline``.
    case error
    /// Pass the response through unchanged.
    case skip
    /// Pass the response through unchanged if its content already has the transformer's output type (a model put
    /// there by a local override, say); otherwise fail as ``error`` does.
    case skipIfOutputTypeMatches
}

/// A transformer that turns content of one type into another with a closure, the building block for parsers and
/// model mapping.
///
/// The closure receives the entity with its content already cast to `InputContentType`, and returns the new
/// content. Headers, content type and timestamp are kept.
///
/// ```swift
/// let csv = ResponseContentTransformer<String, [[String]]> { entity in
///     entity.content.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
/// }
/// service.configure { $0.pipeline[.parsing].add(csv, contentTypes: ["text/csv"]) }
/// ```
///
/// - Returning `nil` fails the response with ``RequestError/Cause/TransformerReturnedNil`` (rule F20).
/// - Throwing a ``RequestError`` fails the response with exactly that error; throwing anything else fails it with
///   "Cannot parse server response" and the thrown error as the ``RequestError/cause`` (rule F17).
/// - Error responses are left alone unless `transformErrors` is true (rule F15). When an error body fails to
///   transform, the original error is kept with its body as it was, so the HTTP status and message survive a body
///   that is not what the server usually sends (rule F10).
public struct ResponseContentTransformer<InputContentType, OutputContentType>: ResponseTransformer,
    CustomStringConvertible
{
    /// The closure that maps content.
    public typealias Processor = @Sendable (Entity<InputContentType>) throws -> OutputContentType?

    private let mismatchAction: InputTypeMismatchAction
    private let transformErrors: Bool
    private let processor: Processor
    /// A description for logs and error causes.
    public let description: String

    /// Creates a content transformer.
    ///
    /// - Parameters:
    ///   - mismatchAction: What to do when the content is not an `InputContentType`.
    ///   - transformErrors: Whether error bodies are transformed too.
    ///   - description: A description for logs and error causes; the input and output types by default.
    ///   - processor: Maps the content. It may run on any thread; see ``ResponseTransformer``.
    public init(
        onInputTypeMismatch mismatchAction: InputTypeMismatchAction = .error,
        transformErrors: Bool = false,
        description: String? = nil,
        processor: @escaping Processor
    ) {
        self.mismatchAction = mismatchAction
        self.transformErrors = transformErrors
        self.processor = processor
        self.description = description ?? "\(InputContentType.self) → \(OutputContentType.self)"
    }

    /// Transforms a success's content, and an error's body when `transformErrors` is set.
    public func process(_ response: Response) -> Response {
        switch response {
        case .success(let entity):
            return transform(entity)
        case .failure(let error):
            guard transformErrors, let body = error.entity,
                case .success(let transformed) = transform(body)
            else { return response }
            var result = error
            result.entity = transformed
            return .failure(result)
        }
    }

    private func transform(_ entity: Entity<Any>) -> Response {
        guard let input = entity.content as? InputContentType else {
            return mismatch(entity)
        }
        do {
            guard let output = try processor(entity.withContent(input)) else {
                throw RequestError.Cause.TransformerReturnedNil(transformer: description)
            }
            return .success(entity.withContent(output as Any))
        } catch let error as RequestError {
            return .failure(error)
        } catch {
            return .failure(RequestError.cannotParseResponse(cause: error, entity: entity))
        }
    }

    private func mismatch(_ entity: Entity<Any>) -> Response {
        switch mismatchAction {
        case .skip:
            return .success(entity)
        case .skipIfOutputTypeMatches where entity.content is OutputContentType:
            return .success(entity)
        case .error, .skipIfOutputTypeMatches:
            let cause = RequestError.Cause.WrongInputTypeInTranformerPipeline(
                expectedType: InputContentType.self, actualType: type(of: entity.content), transformer: description)
            return .failure(RequestError.cannotParseResponse(cause: cause, entity: entity))
        }
    }
}
