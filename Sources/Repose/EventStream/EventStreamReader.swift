import Foundation

/// What one piece of an open stream's body brought, handed to the main actor in one hop.
struct EventStreamBatch: Sendable {
    /// The events the piece completed, in order.
    var events: [EventStream.Event]
    /// The reconnection time the stream asks for, in milliseconds, if it has set one.
    var retry: Int?
    /// The last event ID after the piece.
    var lastEventID: String
}

/// The part of a connection attempt that runs where the networking provider calls back: it judges the response's
/// head (rule V2) and parses the body (rule V1), so that the main actor only receives finished events.
///
/// Safe (`@unchecked Sendable`): every variable is touched only under `lock`. A provider calls one transfer's
/// callbacks one at a time, so the lock is never contended; it makes the rule hold whatever the provider does.
final class EventStreamReader: @unchecked Sendable {
    private let lock = NSLock()
    private var parser: EventStreamParser
    private var isOpen = false
    private let now: @Sendable () -> TimeInterval
    /// The most bytes one event may hold while it is read: the configuration's ``Configuration/maximumResponseSize``.
    private let maximumEventSize: Int
    /// The one content type that opens a stream, read as every content type is: any case, parameters ignored.
    private static let eventStream = ContentTypeMatcher("text/event-stream")

    init(lastEventID: String, maximumEventSize: Int, now: @escaping @Sendable () -> TimeInterval) {
        parser = EventStreamParser(lastEventID: lastEventID)
        self.maximumEventSize = maximumEventSize
        self.now = now
    }

    /// Judges the response's status and headers: `nil` when the stream is open, else the error that refuses it.
    ///
    /// Only a 2xx other than 204 with a content type of `text/event-stream` opens the stream (parameters such as a
    /// charset are allowed). A 204 and a wrong content type end the stream for good; an error status is for the
    /// stream's runner to judge (the authenticator sees a 401 first).
    func accept(_ head: NetworkResponse) -> RequestError? {
        let status = head.statusCode
        if status == 204 {
            return RequestError(
                userMessage: "The server ended the event stream.", cause: nil, httpStatusCode: 204, timestamp: now())
        }
        guard (200..<300).contains(status) else {
            return RequestError(httpStatusCode: status, entity: nil, timestamp: now())
        }
        let contentType = head.headers.first { $0.key.lowercased() == "content-type" }?.value ?? ""
        guard Self.eventStream.matches(contentType) else {
            return RequestError(
                userMessage: "The server did not answer with an event stream.", cause: nil,
                httpStatusCode: status, timestamp: now())
        }
        lock.withLock { isOpen = true }
        return nil
    }

    /// Parses a piece of an open stream's body: the batch for the main actor (`nil` when the piece changed nothing it
    /// needs to hear), or the error that ends the attempt when an event grows past the size limit.
    func read(_ bytes: Data) -> Result<EventStreamBatch?, RequestError> {
        lock.withLock {
            guard isOpen else { return .success(nil) }
            let before = (parser.retry, parser.lastEventID)
            var events: [EventStream.Event] = []
            parser.read(bytes, into: &events)
            if parser.heldByteCount > maximumEventSize {
                isOpen = false
                let cause = RequestError.Cause.ResponseTooLarge(maximumSize: maximumEventSize)
                return .failure(
                    RequestError(wrapping: cause, fallbackMessage: "An event was too large.", timestamp: now()))
            }
            guard !events.isEmpty || before != (parser.retry, parser.lastEventID) else { return .success(nil) }
            return .success(EventStreamBatch(events: events, retry: parser.retry, lastEventID: parser.lastEventID))
        }
    }

    /// The attempt's one response: a transport error as a failure, an ended body as an empty success. An event
    /// whose blank line never came is dropped, as the specification says.
    func ended(with error: (any Error)?) -> Response {
        if let error {
            return .failure(NetworkErrorMessages.requestError(for: error, timestamp: now()))
        }
        return .success(Entity<Any>(content: Data(), contentType: "text/event-stream", timestamp: now()))
    }
}
