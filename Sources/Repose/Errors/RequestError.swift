import Foundation

/// Everything that can go wrong with a request, rolled into one structure that is easy to show in a UI.
///
/// Transport failures, HTTP error statuses, request bodies that cannot be encoded, responses that cannot be
/// parsed, and cancellation all arrive as a `RequestError`. ``userMessage`` is always fit for display; ``cause``
/// says precisely what happened.
public struct RequestError: Error {
    /// A message suitable for showing to the user.
    public var userMessage: String
    /// The HTTP status, when the server answered with an error status.
    public var httpStatusCode: Int?
    /// The body of the error response, parsed like any other response, when there was one.
    public var entity: Entity<Any>? {
        get { body.value }
        set { body.value = newValue }
    }
    /// The underlying error: a transport error, a parser error, or one of the ``Cause`` types.
    public var cause: (any Error)?
    /// When the error happened (seconds since 1970, on the service's clock). Repose stamps every error it reports;
    /// one you create yourself keeps the time you give it, 0 by default.
    public var timestamp: TimeInterval
    /// The body's storage: its content is the only part of an error the compiler cannot check for `Sendable`.
    private var body: ParsedContent<Entity<Any>?>

    /// Creates an error from its parts.
    public init(
        userMessage: String,
        cause: (any Error)?,
        entity: Entity<Any>? = nil,
        httpStatusCode: Int? = nil,
        timestamp: TimeInterval = 0
    ) {
        self.userMessage = userMessage
        self.cause = cause
        self.body = ParsedContent(entity)
        self.httpStatusCode = httpStatusCode
        self.timestamp = timestamp
    }

    /// An error for an HTTP error status. The message is the status's reason phrase unless `userMessage` is given.
    public init(
        httpStatusCode: Int,
        entity: Entity<Any>?,
        userMessage: String? = nil,
        timestamp: TimeInterval = 0
    ) {
        self.init(
            userMessage: userMessage ?? HTTPStatus.userMessage(for: httpStatusCode),
            cause: nil,
            entity: entity,
            httpStatusCode: httpStatusCode,
            timestamp: timestamp)
    }

    /// An error wrapping another one: a `RequestError` passes through unchanged; anything else becomes the
    /// ``cause``, with its localized description as the message when it has a useful one.
    public init(
        wrapping error: any Error, fallbackMessage: String, timestamp: TimeInterval = 0
    ) {
        if let requestError = error as? RequestError {
            self = requestError
            return
        }
        self.init(
            userMessage: RequestError.displayMessage(for: error) ?? fallbackMessage,
            cause: error,
            timestamp: timestamp)
    }

    /// Whether this error reports a cancelled request rather than a failure.
    public var isCancellation: Bool {
        cause is Cause.RequestCancelled
    }

    /// The message of one of Repose's own causes, or else the localized description of an error, unless it is the
    /// uninformative text Foundation makes up for errors that provide none. A URL it quotes is shown without its secrets: the message is meant for a screen,
    /// where a credential has no business either.
    static func displayMessage(for error: any Error) -> String? {
        if let cause = error as? any DisplayableCause {
            return cause.displayMessage
        }
        if let described = error as? any LocalizedError, let description = described.errorDescription {
            return ReposeLog.redactingURLs(in: description)
        }
        let nsError = error as NSError
        if nsError.userInfo[NSLocalizedDescriptionKey] != nil {
            return ReposeLog.redactingURLs(in: nsError.localizedDescription)
        }
        return nil
    }
}

// `Sendable` as every `Error` is, checked by the compiler: the cause is an `Error`, hence `Sendable`, and the error
// body is held in `ParsedContent`, the one unchecked part (see there).

extension RequestError: TypedContentAccessors {
    /// The error body, so that `error.jsonDict` and `error.text` read what the server said.
    public var entityForTypedContentAccessors: Entity<Any>? { entity }
}
