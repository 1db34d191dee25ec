import Foundation
import ReposeSignals

/// A request whose response body reaches the app as it arrives (rules U2, U4, U5): made by
/// ``Resource/streamRequest(_:headers:bufferSize:maximumLineLength:requestMutation:)``.
///
/// Read its body once, in one of three shapes, or as a signal:
///
/// ```swift
/// let feed = api.resource("/feed").streamRequest()
/// for try await line in feed.lines { log.append(line) }
/// ```
///
/// - ``bytes``: the body's pieces as the network delivers them;
/// - ``text``: its text, as it arrives;
/// - ``lines``: its text lines (UTF-8, split at `\n`, a `\r` before it dropped);
/// - ``values(of:decoder:)``: one `Decodable` value per line (NDJSON, JSON Lines), decoded off the main actor;
/// - ``StreamedElements/signal``: any of those as a `Signal` of results.
///
/// The first piece reaches the reader as soon as it arrives. A reader slower than the network keeps at most
/// ``bufferSize`` unread bytes in memory; the rest waits in a private temporary file with no name, deleted with the
/// request. Ending the iteration (a `break`, a thrown error, the task's cancellation) or the signal's last
/// subscription cancels the request, and so does letting go of the streamed request before reading it.
public final class StreamedRequest: Sendable {
    /// The unread bytes kept in memory, unless given: 1 MiB.
    public static let defaultBufferSize = 1 << 20
    /// The longest line or NDJSON value read, unless given: 1 MiB.
    public static let defaultMaximumLineLength = 1 << 20

    /// The request itself: its hooks (`onCompletion`, `onProgress`), its state and `cancel()`.
    public let request: Request
    /// How many unread bytes wait in memory; more wait in a private temporary file.
    public let bufferSize: Int
    /// The longest line (``lines``) or NDJSON value (``values(of:decoder:)``), in bytes without its line break: a
    /// longer one fails the reading with a ``RequestError`` whose cause is ``RequestError/Cause/LineTooLong``.
    public let maximumLineLength: Int
    let stream: ChunkStream
    let now: @Sendable () -> TimeInterval

    init(
        request: Request, stream: ChunkStream, maximumLineLength: Int, now: @escaping @Sendable () -> TimeInterval
    ) {
        self.request = request
        self.stream = stream
        bufferSize = stream.capacity
        self.maximumLineLength = max(maximumLineLength, 1)
        self.now = now
    }

    /// Nobody can read the body any more: the request is cancelled, so that it does not hold the network.
    deinit {
        cancel()
    }

    /// The body's pieces, in order, as the network delivers them.
    public var bytes: StreamedElements<Data> {
        StreamedElements(owner: self, framing: .pieces { $0 })
    }

    /// The body's text as it arrives, decoded as UTF-8: one string per piece, a character split between two pieces
    /// whole in the second.
    public var text: StreamedElements<String> {
        StreamedElements(owner: self, framing: .text { $0 })
    }

    /// The body's text lines, decoded as UTF-8: split at each `\n`, with a `\r` before it dropped; a last line
    /// without a line break counts too.
    public var lines: StreamedElements<String> {
        StreamedElements(owner: self, framing: .lines(skipsBlank: false) { String(decoding: $0, as: UTF8.self) })
    }

    /// The body as newline-delimited JSON (NDJSON, JSON Lines): one `Value` decoded from each line that is not
    /// blank, off the main actor. A line that does not decode fails the reading with a ``RequestError`` whose cause
    /// is ``RequestError/Cause/ModelDecodingFailed``.
    ///
    /// - Parameters:
    ///   - type: The type of each value.
    ///   - decoder: The decoder for each line.
    public func values<Value: Decodable & Sendable>(
        of type: Value.Type = Value.self, decoder: JSONDecoder = JSONDecoder()
    ) -> StreamedElements<Value> {
        let decoder = UncheckedDecoder(decoder)
        let now = now
        return StreamedElements(
            owner: self,
            framing: .lines(skipsBlank: true) { line in
                do {
                    return try decoder.value.decode(Value.self, from: line)
                } catch {
                    let cause = RequestError.Cause.ModelDecodingFailed(
                        modelType: Value.self, codingPath: Self.codingPath(of: error), underlying: error)
                    throw RequestError(userMessage: cause.displayMessage, cause: cause, timestamp: now())
                }
            })
    }

    /// Cancels the request: a reader ends after the pieces it has read.
    public func cancel() {
        stream.abandon()
        MainRoute.send { [request] in request.cancel() }
    }

    /// Where decoding stopped, as `items[2].name`.
    private static func codingPath(of error: any Error) -> String {
        let path: [any CodingKey]
        switch error as? DecodingError {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
            .dataCorrupted(let context):
            path = context.codingPath
        default:
            path = []
        }
        return path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            .trimmingCharacters(in: CharacterSet(charactersIn: "."))
    }
}

/// A decoder handed to the reading task: `JSONDecoder` is not `Sendable` everywhere, but each reading only decodes
/// with it, one line at a time, and nobody changes it meanwhile.
struct UncheckedDecoder: @unchecked Sendable {
    let value: JSONDecoder
    init(_ value: JSONDecoder) { self.value = value }
}

extension RequestError.Cause {
    /// A line of a streamed body (``StreamedRequest/lines``, ``StreamedRequest/values(of:decoder:)``) was longer than
    /// the request's ``StreamedRequest/maximumLineLength``.
    public struct LineTooLong: Error, DisplayableCause {
        /// The longest line the request reads, in bytes.
        public let maximumLength: Int
        public init(maximumLength: Int) { self.maximumLength = maximumLength }
        var displayMessage: String { "A line of the server's response was too long (over \(size))." }

        /// The limit as people read it: `1 MiB`, `64 KiB`, `100 bytes`.
        private var size: String {
            if maximumLength >= 1 << 20, maximumLength % (1 << 20) == 0 { return "\(maximumLength >> 20) MiB" }
            if maximumLength >= 1 << 10, maximumLength % (1 << 10) == 0 { return "\(maximumLength >> 10) KiB" }
            return maximumLength == 1 ? "1 byte" : "\(maximumLength) bytes"
        }
    }

    /// The unread part of a streamed body beyond its ``StreamedRequest/bufferSize`` could not be kept on disk (a
    /// full disk, no temporary folder): the reading fails instead of the body piling up in memory.
    public struct StreamBufferFailed: Error, DisplayableCause {
        /// The system's error number (`errno`).
        public let errorNumber: Int32
        public init(errorNumber: Int32) { self.errorNumber = errorNumber }
        var displayMessage: String { "The server's response could not be kept while it was read." }
    }
}
