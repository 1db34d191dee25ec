import Foundation
import ReposeSignals

/// A ``StreamedRequest``'s body as an `AsyncSequence`: its pieces (``StreamedRequest/bytes``), its lines
/// (``StreamedRequest/lines``) or its NDJSON values (``StreamedRequest/values(of:decoder:)``).
///
/// The elements come as the body arrives; the sequence ends with the body, or throws the request's ``RequestError``
/// (a transport failure, an error status, a line over ``StreamedRequest/maximumLineLength``, a value that does not
/// decode) after the elements before it. Lines are split and values decoded in the reading task, off the main actor.
///
/// A request's body is read once: iterate one of its sequences, once. Ending the iteration early (a `break`, an
/// error, the task's cancellation) cancels the request.
public struct StreamedElements<Element: Sendable>: AsyncSequence, Sendable {
    /// How the body's bytes become elements.
    enum Framing: Sendable {
        /// Each piece as it arrived.
        case pieces(@Sendable (Data) -> Element)
        /// Each piece's text, a character split between pieces kept for the next.
        case text(@Sendable (String) -> Element)
        /// Each line, blank ones skipped where asked.
        case lines(skipsBlank: Bool, @Sendable (Data) throws -> Element)
    }

    let owner: StreamedRequest
    let framing: Framing

    /// Starts reading the body.
    public func makeAsyncIterator() -> Iterator {
        Iterator(reader: StreamReader(owner: owner), framing: framing)
    }

    /// Reads a streamed body: see ``StreamedElements``.
    public struct Iterator: AsyncIteratorProtocol {
        let reader: StreamReader
        let framing: Framing
        /// The bytes of lines not yet returned, from `start`.
        private var pending = Data()
        private var start = 0
        private var isDone = false
        /// The pieces taken from the stream at its latest read, and how many of them were returned.
        private var batch: [Data] = []
        private var taken = 0

        init(reader: StreamReader, framing: Framing) {
            self.reader = reader
            self.framing = framing
        }

        /// The next element, once it arrived; `nil` at the end of the body. Throws a ``RequestError``.
        public mutating func next() async throws -> Element? {
            guard !isDone else { return nil }
            do {
                let element = try await nextElement()
                if element == nil { isDone = true }
                return element
            } catch {
                isDone = true
                reader.stop()  // a line too long or a value that does not decode: the rest is not wanted
                throw error
            }
        }

        private mutating func nextElement() async throws -> Element? {
            switch framing {
            case .pieces(let make):
                return try await nextPiece().map(make)
            case .text(let make):
                return try await nextText().map(make)
            case .lines(let skipsBlank, let make):
                while let line = try await nextLine() {
                    if skipsBlank, line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
                    return try make(line)
                }
                return nil
            }
        }

        /// The next piece of the body, from the batch the stream handed over, or from the stream's next batch.
        private mutating func nextPiece() async throws -> Data? {
            if taken == batch.count {
                guard let pieces = try await reader.read() else { return nil }
                (batch, taken) = (pieces, 0)
            }
            defer { taken += 1 }
            return batch[taken]
        }

        /// The next pieces' text, up to the last whole character; what is left at the body's end, as it decodes.
        private mutating func nextText() async throws -> String? {
            while let piece = try await nextPiece() {
                pending.append(piece)
                let end = Self.wholeCharactersEnd(of: pending)
                guard end > pending.startIndex else { continue }
                defer { pending = Data(pending[end...]) }
                return String(decoding: pending[..<end], as: UTF8.self)
            }
            defer { pending = Data() }
            return pending.isEmpty ? nil : String(decoding: pending, as: UTF8.self)
        }

        /// Where the UTF-8 in `bytes` stops being whole: before a last character whose bytes have not all come.
        private static func wholeCharactersEnd(of bytes: Data) -> Data.Index {
            var lead = bytes.endIndex
            while lead > bytes.startIndex, bytes.endIndex - lead < 4 {
                lead -= 1
                let byte = bytes[lead]
                guard byte & 0xC0 == 0x80 else {
                    let length = byte < 0x80 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
                    return bytes.endIndex - lead < length ? lead : bytes.endIndex
                }
            }
            return bytes.endIndex  // no lead byte in reach: not UTF-8, decoded as it is
        }

        /// The next line's bytes, without its line break.
        private mutating func nextLine() async throws -> Data? {
            let maximum = reader.owner.maximumLineLength
            while true {
                if let newline = pending[(pending.startIndex + start)...].firstIndex(of: 0x0A) {
                    var end = newline
                    if end > pending.startIndex + start, pending[end - 1] == 0x0D { end -= 1 }
                    let line = pending[(pending.startIndex + start)..<end]
                    start = newline + 1 - pending.startIndex
                    guard line.count <= maximum else { throw reader.lineTooLong() }
                    return Data(line)
                }
                guard pending.count - start <= maximum else { throw reader.lineTooLong() }
                guard let piece = try await nextPiece() else {
                    guard start < pending.count else { return nil }
                    let line = pending[(pending.startIndex + start)...]
                    start = pending.count
                    return Data(line)  // the last line, without a line break
                }
                pending = start == 0 ? pending : Data(pending[(pending.startIndex + start)...])
                start = 0
                pending.append(piece)
            }
        }
    }
}

extension StreamedElements {
    /// The elements as a `Signal`: each one as a success, then, if the reading fails, its ``RequestError`` as a
    /// failure; the signal finishes after the last. The body is read while the signal has observers, and the last
    /// one's leaving cancels the request. The request's body is read once: a signal observed again after that
    /// finishes at once.
    @MainActor
    public var signal: Signal<Result<Element, RequestError>> {
        Signal(StreamedResults(elements: self))
    }
}

/// A streamed body's elements as results, ending after the first failure: what its signal delivers.
struct StreamedResults<Element: Sendable>: AsyncSequence, Sendable {
    let elements: StreamedElements<Element>

    func makeAsyncIterator() -> Iterator {
        Iterator(base: elements.makeAsyncIterator())
    }

    struct Iterator: AsyncIteratorProtocol {
        var base: StreamedElements<Element>.Iterator
        var isDone = false

        mutating func next() async -> Result<Element, RequestError>? {
            guard !isDone else { return nil }
            do {
                guard let element = try await base.next() else { return nil }
                return .success(element)
            } catch {
                isDone = true
                return .failure(RequestError(wrapping: error, fallbackMessage: RequestError.cannotParseResponseMessage))
            }
        }
    }
}

/// One reading of a streamed body: takes the stream's pieces, and cancels the request when the reading ends before
/// the body does (a `break` drops the iterator, and with it this reader).
final class StreamReader: Sendable {
    let owner: StreamedRequest

    init(owner: StreamedRequest) {
        self.owner = owner
    }

    deinit {
        owner.cancel()  // after the whole body, the request is complete already: this does nothing
    }

    func read() async throws -> [Data]? {
        try await owner.stream.read()
    }

    /// Ends the reading before the body's end.
    func stop() {
        owner.cancel()
    }

    func lineTooLong() -> RequestError {
        let cause = RequestError.Cause.LineTooLong(maximumLength: owner.maximumLineLength)
        return RequestError(userMessage: cause.displayMessage, cause: cause, timestamp: owner.now())
    }
}
