import Foundation

/// Reads an event stream's body as the WHATWG HTML specification's event-stream format says (rule V1), piece by
/// piece as it arrives, and collects the events it dispatches.
///
/// It works on bytes: the line ends (CR, LF, CRLF) are ASCII, so they never fall inside a UTF-8 sequence, and each
/// line is decoded on its own, with U+FFFD for invalid bytes, as decoding the whole stream would. A CR at the end of
/// one piece and an LF at the start of the next are one line end. One parser reads one response: a reconnection
/// starts a new one, carrying the last event ID over.
struct EventStreamParser {
    /// The last event ID: the latest `id` field without a NUL, as of the latest dispatch. Sent as `Last-Event-ID`
    /// when the stream reconnects.
    private(set) var lastEventID: String
    /// The reconnection time the stream asked for with its latest valid `retry` field, in milliseconds.
    private(set) var retry: Int?

    /// The bytes of a line whose end has not arrived yet.
    private var partialLine: [UInt8] = []
    /// Whether the previous piece ended with a CR: an LF that starts the next piece belongs to that line end.
    private var afterCR = false
    /// Whether the first line is still to come: a byte order mark at its start is dropped.
    private var atStart = true
    /// The `data` fields of the event being read, each followed by an LF.
    private var dataBuffer: [UInt8] = []
    /// The `event` field of the event being read.
    private var eventType = ""
    /// The latest `event` field's bytes and text: a feed repeats a few types, so each is decoded once in a row.
    private var lastType: (bytes: [UInt8], text: String) = ([], "")
    /// The `id` field as read so far; it becomes ``lastEventID`` when an event is dispatched.
    private var idBuffer: String

    /// The bytes held for the event being read: its data so far and a line whose end has not arrived. A reader
    /// bounds it, so that a server that never ends a line or an event cannot fill the memory.
    var heldByteCount: Int { partialLine.count + dataBuffer.count }

    init(lastEventID: String = "") {
        self.lastEventID = lastEventID
        idBuffer = lastEventID
    }

    /// Reads `bytes` and appends the events they complete to `events`.
    mutating func read(_ bytes: Data, into events: inout [EventStream.Event]) {
        bytes.withUnsafeBytes { buffer in
            read(buffer, into: &events)
        }
    }

    /// Reads `buffer` and appends the events it completes to `events`.
    mutating func read(_ buffer: UnsafeRawBufferPointer, into events: inout [EventStream.Event]) {
        var start = 0
        let count = buffer.count
        if afterCR, count > 0 {
            afterCR = false
            if buffer[0] == .lineFeed { start = 1 }
        }
        var index = start
        while index < count {
            let byte = buffer[index]
            guard byte == .lineFeed || byte == .carriageReturn else {
                index += 1
                continue
            }
            let line = UnsafeRawBufferPointer(rebasing: buffer[start..<index])
            if partialLine.isEmpty {
                readLine(line, into: &events)
            } else {
                partialLine.append(contentsOf: line)
                let whole = partialLine
                partialLine.removeAll(keepingCapacity: true)
                whole.withUnsafeBytes { readLine($0, into: &events) }
            }
            index += 1
            if byte == .carriageReturn {
                if index == count {
                    afterCR = true
                } else if buffer[index] == .lineFeed {
                    index += 1
                }
            }
            start = index
        }
        if start < count {
            partialLine.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[start..<count]))
        }
    }

    /// Reads one line, without its line end.
    private mutating func readLine(_ line: UnsafeRawBufferPointer, into events: inout [EventStream.Event]) {
        var line = line
        if atStart {
            atStart = false
            if line.starts(with: Self.byteOrderMark) {
                line = UnsafeRawBufferPointer(rebasing: line[3...])
            }
        }
        guard let first = line.first else { return dispatch(into: &events) }
        if first == .colon { return }  // a comment
        let colon = line.firstIndex(of: .colon) ?? line.endIndex
        let name = UnsafeRawBufferPointer(rebasing: line[..<colon])
        var valueStart = Swift.min(colon + 1, line.endIndex)
        if valueStart < line.endIndex, line[valueStart] == .space { valueStart += 1 }
        let value = UnsafeRawBufferPointer(rebasing: line[valueStart...])
        if name.elementsEqual(Self.data) {
            dataBuffer.append(contentsOf: value)
            dataBuffer.append(.lineFeed)
        } else if name.elementsEqual(Self.event) {
            if !value.elementsEqual(lastType.bytes) {
                lastType = (Array(value), String(decoding: value, as: UTF8.self))
            }
            eventType = lastType.text
        } else if name.elementsEqual(Self.id) {
            if !value.contains(0) { idBuffer = String(decoding: value, as: UTF8.self) }
        } else if name.elementsEqual(Self.retry) {
            if let milliseconds = Self.digits(value) { retry = milliseconds }
        }
    }

    /// Ends the event being read at a blank line: it is dispatched if it has data.
    private mutating func dispatch(into events: inout [EventStream.Event]) {
        lastEventID = idBuffer
        defer {
            dataBuffer.removeAll(keepingCapacity: true)
            eventType = ""
        }
        guard !dataBuffer.isEmpty else { return }
        dataBuffer.removeLast()  // the LF after the last data line
        let data = String(decoding: dataBuffer, as: UTF8.self)
        events.append(EventStream.Event(type: eventType.isEmpty ? "message" : eventType, data: data, id: lastEventID))
    }

    /// The value of a field that is only ASCII digits, clamped to a day; `nil` for anything else.
    private static func digits(_ value: UnsafeRawBufferPointer) -> Int? {
        guard !value.isEmpty, value.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        var result = 0
        for digit in value {
            result = Swift.min(result * 10 + Int(digit - 0x30), maximumRetry)
        }
        return result
    }

    /// The longest reconnection time a stream may ask for: a day, in milliseconds. A larger value would be a
    /// server's mistake, and an overflow here.
    static let maximumRetry = 86_400_000

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    private static let data = Array("data".utf8)
    private static let event = Array("event".utf8)
    private static let id = Array("id".utf8)
    private static let retry = Array("retry".utf8)
}

extension UInt8 {
    fileprivate static let lineFeed: UInt8 = 0x0A
    fileprivate static let carriageReturn: UInt8 = 0x0D
    fileprivate static let colon: UInt8 = 0x3A
    fileprivate static let space: UInt8 = 0x20
}
