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

/// An event stream's body: the ``BodySink`` of each connection attempt, a ``NetworkRequest`` of the stream's runner.
/// It judges the response's head (rule V2) and parses the body (rule V1) where the provider hands it over, so that
/// the main actor only receives finished events, as news of the request.
///
/// Safe (`@unchecked Sendable`): every variable is touched only under `lock`. The attempt calls one method at a time,
/// so the lock is never contended; it makes the rule hold whatever the provider does.
final class EventStreamReader: BodySink, @unchecked Sendable {
    private let lock = NSLock()
    private var parser: EventStreamParser
    private var isOpen = false
    private let now: @Sendable () -> TimeInterval
    /// The most bytes one event may hold while it is read: the configuration's ``Configuration/maximumResponseSize``.
    private let maximumEventSize: Int
    /// Who hears the stream's opening and its events, on the main actor.
    private weak var runner: EventStreamRunner?
    /// The one content type that opens a stream, read as every content type is: any case, parameters ignored.
    private static let eventStream = ContentTypeMatcher("text/event-stream")

    /// Every response comes here: one that does not open the stream is refused at once, its body unread.
    var takesErrorBodies: Bool { true }

    @MainActor
    init(for runner: EventStreamRunner, maximumEventSize: Int, now: @escaping @Sendable () -> TimeInterval) {
        parser = EventStreamParser(lastEventID: runner.lastEventID)
        self.runner = runner
        self.maximumEventSize = maximumEventSize
        self.now = now
    }

    /// Judges the response's status and headers: the stream opens, or the error that refuses it is thrown.
    ///
    /// Only a 2xx other than 204 with a content type of `text/event-stream` opens the stream (parameters such as a
    /// charset are allowed). A 204 and a wrong content type end the stream for good; an error status is for the
    /// stream's runner to judge (the authenticator sees a 401 first).
    func begin(_ head: NetworkResponse) throws -> BodyNews? {
        let status = head.statusCode
        if status == 204 {
            throw RequestError(
                userMessage: "The server ended the event stream.", cause: nil, httpStatusCode: 204, timestamp: now())
        }
        guard (200..<300).contains(status) else {
            throw RequestError(httpStatusCode: status, entity: nil, timestamp: now())
        }
        let contentType = head.headers.first { $0.key.lowercased() == "content-type" }?.value ?? ""
        guard Self.eventStream.matches(contentType) else {
            throw RequestError(
                userMessage: "The server did not answer with an event stream.", cause: nil,
                httpStatusCode: status, timestamp: now())
        }
        lock.withLock { isOpen = true }
        return { [weak runner] in runner?.opened() }
    }

    /// Parses a piece of an open stream's body: the batch for the main actor (`nil` when the piece changed nothing it
    /// needs to hear); throws when an event grows past the size limit.
    func append(_ bytes: Data) throws -> BodyNews? {
        let batch = try lock.withLock { () throws(RequestError) -> EventStreamBatch? in
            guard isOpen else { return nil }
            let before = (parser.retry, parser.lastEventID)
            var events: [EventStream.Event] = []
            parser.read(bytes, into: &events)
            if parser.heldByteCount > maximumEventSize {
                isOpen = false
                let cause = RequestError.Cause.ResponseTooLarge(maximumSize: maximumEventSize)
                throw RequestError(wrapping: cause, fallbackMessage: "An event was too large.", timestamp: now())
            }
            guard !events.isEmpty || before != (parser.retry, parser.lastEventID) else { return nil }
            return EventStreamBatch(events: events, retry: parser.retry, lastEventID: parser.lastEventID)
        }
        guard let batch else { return nil }
        return { [weak runner] in runner?.received(batch) }
    }

    /// The body ended: an empty success. An event whose blank line never came is dropped, as the specification
    /// says.
    func end(_ head: NetworkResponse) throws -> BodyEnd {
        .content(Data())
    }

    func discard() {}
}
