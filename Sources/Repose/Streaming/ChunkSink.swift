import Foundation

/// A streamed request's ``BodySink`` for one attempt: hands each piece of the body to the request's ``ChunkStream``,
/// where the app reads it. An error response's body is read into memory instead, for the request's error.
final class ChunkSink: BodySink, Sendable {
    let stream: ChunkStream
    let attempt: Int

    init(stream: ChunkStream) {
        self.stream = stream
        attempt = stream.beginAttempt()
    }

    var takesErrorBodies: Bool { false }

    func begin(_ head: NetworkResponse) throws -> BodyNews? {
        stream.began(head)
        return nil
    }

    /// Never waits for the reader: what finds memory full goes to disk (rule U4).
    func append(_ bytes: Data) throws -> BodyNews? {
        try stream.append(bytes, from: attempt)
        return nil
    }

    /// The body is all in the stream: the request's content is empty.
    func end(_ head: NetworkResponse) throws -> BodyEnd {
        stream.endAttempt(attempt)
        return .content(Data())
    }

    func discard() {
        stream.endAttempt(attempt)
    }
}
