import Foundation

extension RequestError {
    /// The message every response-parsing failure shows; the `cause` says what exactly went wrong.
    static let cannotParseResponseMessage = "Cannot parse server response"

    /// A failure to read a response body: a parser's own error or one of the `Cause` types as the cause.
    static func cannotParseResponse(cause: any Error) -> RequestError {
        RequestError(userMessage: cannotParseResponseMessage, cause: cause)
    }
}
