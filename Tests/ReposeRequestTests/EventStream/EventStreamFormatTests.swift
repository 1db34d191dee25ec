import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// One case of the event-stream format: the bytes a server sends and what a client must make of them.
///
/// The cases restate, as data, what the format tests of web-platform-tests' `eventsource` suite check (their
/// names are in `wpt`), plus the line-end and chunking rules of the WHATWG HTML specification's parser.
struct FormatCase: CustomTestStringConvertible, Sendable {
    let name: String
    let wpt: String?
    let bytes: [UInt8]
    let events: [EventStream.Event]
    var retry: Int? = nil
    var lastEventID = ""

    init(
        _ name: String, wpt: String? = nil, _ text: String, _ events: [EventStream.Event], retry: Int? = nil,
        lastEventID: String = ""
    ) {
        self.init(name, wpt: wpt, bytes: Array(text.utf8), events, retry: retry, lastEventID: lastEventID)
    }

    init(
        _ name: String, wpt: String? = nil, bytes: [UInt8], _ events: [EventStream.Event], retry: Int? = nil,
        lastEventID: String = ""
    ) {
        self.name = name
        self.wpt = wpt
        self.bytes = bytes
        self.events = events
        self.retry = retry
        self.lastEventID = lastEventID
    }

    var testDescription: String { name }
}

private func message(_ data: String, id: String = "") -> EventStream.Event {
    EventStream.Event(type: "message", data: data, id: id)
}

private let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

let formatCases: [FormatCase] = [
    FormatCase("one event", "data: hello\n\n", [message("hello")]),
    FormatCase(
        "comments anywhere, with CR, LF and CRLF, and a NUL in a comment", wpt: "format-comments",
        "data:1\r:\0\n:\r\ndata:2\n:" + String(repeating: "x", count: 2048) + "\rdata:3\n:data:fail\r:"
            + String(repeating: "x", count: 2048) + "\ndata:4\n\n",
        [message("1\n2\n3\n4")]),
    FormatCase(
        "an empty data field, a bare data field, and an unfinished event", wpt: "format-field-data",
        "data:\n\ndata\ndata\n\ndata:test", [message(""), message("\n")]),
    FormatCase(
        "a leading BOM is dropped once; a second one is part of a field name", wpt: "format-bom",
        bytes: bom + Array("data:1\n\n".utf8) + bom + Array("data:2\n\ndata:3\n\n".utf8),
        [message("1"), message("3")]),
    FormatCase(
        "an empty event field means message", wpt: "format-field-event-empty", "event: \ndata:data\n\n",
        [message("data")]),
    FormatCase(
        "a custom event type, then a message", wpt: "format-field-event", "event:test\ndata:x\n\ndata:x\n\n",
        [EventStream.Event(type: "test", data: "x"), message("x")]),
    FormatCase(
        "an id with NUL is ignored", wpt: "format-field-id-null", "id:1\ndata:a\n\nid:\0\0\ndata:b\n\n",
        [message("a", id: "1"), message("b", id: "1")], lastEventID: "1"),
    FormatCase(
        "an id stays for the events after it; an empty id resets it", wpt: "format-field-id",
        "id:…\ndata:hello\n\ndata:…\n\nid\ndata:x\n\n",
        [message("hello", id: "…"), message("…", id: "…"), message("x")]),
    FormatCase(
        "an id takes effect at the blank line, even with no data", wpt: "format-data-before-final-empty-line",
        "retry:1000\ndata:test1\n\nid:test\ndata:test2", [message("test1")], retry: 1000),
    FormatCase(
        "an id with no data still sets the last event ID", "id: 7\n\n", [], lastEventID: "7"),
    FormatCase(
        "a NUL in data is kept", wpt: "format-null-character", "data:\0\n\n", [message("\0")]),
    FormatCase(
        "data is always UTF-8", wpt: "format-utf-8", bytes: Array("data:ok".utf8) + [0xE2, 0x80, 0xA6, 0x0A, 0x0A],
        [message("ok…")]),
    FormatCase(
        "invalid UTF-8 becomes U+FFFD", bytes: Array("data:a".utf8) + [0xFF, 0x0A, 0x0A], [message("a\u{FFFD}")]),
    FormatCase(
        "a bogus retry is ignored", wpt: "format-field-retry-bogus", "retry:2000\nretry:1000x\ndata:x\n\n",
        [message("x")], retry: 2000),
    FormatCase("retry with a space before the digits counts", "retry: 500\n\n", [], retry: 500),
    FormatCase("an empty retry is ignored", "retry:\nretry\n\n", []),
    FormatCase(
        "one space after the colon is dropped, not two", "data:  two\n\ndata:none\n\n",
        [message(" two"), message("none")]),
    FormatCase(
        "unknown fields and fields with a colon in their value", "foo: bar\ndata: a:b\nDATA: no\n\n",
        [message("a:b")]),
    FormatCase(
        "CR alone ends lines and events", "data:a\rdata:b\r\rdata:c\r\r", [message("a\nb"), message("c")]),
    FormatCase(
        "CRLF ends lines and events", "event:e\r\ndata:a\r\n\r\n", [EventStream.Event(type: "e", data: "a")]),
    FormatCase("a blank line with nothing before dispatches nothing", "\n\n\r\n:hi\n\n", []),
    FormatCase(
        "the event type resets after each event", "event:a\ndata:1\n\ndata:2\n\n",
        [EventStream.Event(type: "a", data: "1"), message("2")]),
    FormatCase("an event type without data dispatches nothing", "event:a\n\ndata:2\n\n", [message("2")]),
]

@Suite("Event-stream format")
struct EventStreamFormatTests {
    /// Parses `bytes` in pieces that end at `cuts`.
    private func parse(_ bytes: [UInt8], cuts: [Int]) -> (EventStreamParser, [EventStream.Event]) {
        var parser = EventStreamParser()
        var events: [EventStream.Event] = []
        var start = 0
        for cut in cuts + [bytes.count] where cut >= start {
            parser.read(Data(bytes[start..<cut]), into: &events)
            start = cut
        }
        return (parser, events)
    }

    @Test(
        "V1 a stream read whole gives the events, retry and last event ID the specification gives",
        arguments: formatCases)
    func whole(_ format: FormatCase) {
        let (parser, events) = parse(format.bytes, cuts: [])
        #expect(events == format.events)
        #expect(parser.retry == format.retry)
        #expect(parser.lastEventID == format.lastEventID)
    }

    @Test("V1 a stream read one byte at a time gives the same as read whole", arguments: formatCases)
    func byteByByte(_ format: FormatCase) {
        let (parser, events) = parse(format.bytes, cuts: Array(format.bytes.indices))
        #expect(events == format.events)
        #expect(parser.retry == format.retry)
        #expect(parser.lastEventID == format.lastEventID)
    }

    @Test("V1 a CR that ends one piece and an LF that starts the next are one line end")
    func crlfAcrossPieces() {
        let bytes = Array("data:a\r\ndata:b\r\n\r\n".utf8)
        let (_, events) = parse(bytes, cuts: [7, 16])  // "data:a\r" | "\ndata:b\r" | "\n\r\n"
        #expect(events == [message("a\nb")])
    }

    @Test("V1 a BOM split across pieces is still dropped")
    func bomAcrossPieces() {
        let (_, events) = parse(bom + Array("data:1\n\n".utf8), cuts: [1, 2])
        #expect(events == [message("1")])
    }

    @Test("V1 a parser made with a last event ID keeps it until the stream sends another")
    func carriedID() {
        var parser = EventStreamParser(lastEventID: "41")
        var events: [EventStream.Event] = []
        parser.read(Data("data:x\n\n".utf8), into: &events)
        #expect(events == [message("x", id: "41")])
    }

    @Test("V1 a huge retry is clamped rather than overflowing")
    func hugeRetry() {
        let (parser, _) = parse(Array("retry:99999999999999999999999999\n\n".utf8), cuts: [])
        #expect(parser.retry == EventStreamParser.maximumRetry)
    }
}
