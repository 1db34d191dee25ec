import Foundation

extension RequestError {
    /// The message every response-parsing failure shows; the `cause` says what exactly went wrong.
    static let cannotParseResponseMessage = "Cannot parse server response"

    /// A failure to read a response body: a parser's own error or one of the `Cause` types as the cause.
    static func cannotParseResponse(cause: any Error) -> RequestError {
        RequestError(userMessage: cannotParseResponseMessage, cause: cause)
    }
}

extension RequestError {
    /// A failure to transform a response's content; `entity` is what the transformer received, kept for diagnosis.
    package static func cannotParseResponse(cause: any Error, entity: Entity<Any>) -> RequestError {
        RequestError(userMessage: cannotParseResponseMessage, cause: cause, entity: entity, timestamp: entity.timestamp)
    }
}
