import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@Suite("Freshness and Retry-After worked out from response headers")
struct HTTPFreshnessTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let headers: [String: String]
        let lifetime: Double?
        let retryDelay: Double?
        /// How many log lines the headers cause: one per header that cannot be read.
        let logLines: Int
        var testDescription: String { name }

        init(
            _ name: String, _ headers: [String: String], lifetime: Double? = nil, retryDelay: Double? = nil,
            logLines: Int = 0
        ) {
            self.name = name
            self.headers = headers
            self.lifetime = lifetime
            self.retryDelay = retryDelay
            self.logLines = logLines
        }
    }

    /// When the rows' responses arrive: Sun, 06 Nov 1994 08:49:37 GMT.
    static let received: Double = 784_111_777
    static let date = "Sun, 06 Nov 1994 08:49:37 GMT"
    static let inAnHour = "Sun, 06 Nov 1994 09:49:37 GMT"

    static let rows: [Row] = [
        Row("R1 no headers: the configured time applies", [:]),
        Row("R1 max-age", ["Cache-Control": "max-age=60"], lifetime: 60),
        Row(
            "R1 max-age among other directives", ["Cache-Control": "public, max-age=300, must-revalidate"],
            lifetime: 300),
        Row("R1 quoted max-age", ["Cache-Control": "max-age=\"90\""], lifetime: 90),
        Row("R1 huge max-age is capped", ["Cache-Control": "max-age=99999999999"], lifetime: 2_147_483_648),
        Row(
            "R1 max-age wins over Expires", ["Cache-Control": "max-age=10", "Expires": inAnHour, "Date": date],
            lifetime: 10),
        Row("R1 Expires minus Date", ["Expires": inAnHour, "Date": date], lifetime: 3_600),
        Row("R1 Expires without Date counts from receipt", ["Expires": inAnHour], lifetime: 3_600),
        Row(
            "R1 Expires minus Date, whatever our clock says",
            ["Expires": "Mon, 07 Nov 1994 08:49:37 GMT", "Date": "Sun, 06 Nov 1994 08:49:37 GMT"], lifetime: 86_400),
        Row(
            "R1 Expires in RFC 850 form", ["Expires": "Sunday, 06-Nov-94 09:49:37 GMT", "Date": date], lifetime: 3_600),
        Row("R1 Expires in asctime form", ["Expires": "Sun Nov  6 09:49:37 1994", "Date": date], lifetime: 3_600),
        Row("R1 Expires before Date is stale at once", ["Expires": date, "Date": inAnHour], lifetime: 0),
        Row("R1 Expires 0 is already expired", ["Expires": "0"], lifetime: 0, logLines: 1),
        Row("R1 Expires garbage is already expired", ["Expires": "tomorrow"], lifetime: 0, logLines: 1),
        Row(
            "R1 unreadable Date: Expires counts from receipt", ["Expires": inAnHour, "Date": "yesterday"],
            lifetime: 3_600,
            logLines: 1),
        Row("R1 Age is taken off max-age", ["Cache-Control": "max-age=60", "Age": "20"], lifetime: 40),
        Row("R1 Age is taken off Expires", ["Expires": inAnHour, "Date": date, "Age": "600"], lifetime: 3_000),
        Row(
            "R1 Age older than the lifetime is stale at once", ["Cache-Control": "max-age=60", "Age": "100"],
            lifetime: 0),
        Row("R1 unreadable Age is ignored", ["Cache-Control": "max-age=60", "Age": "old"], lifetime: 60, logLines: 1),
        Row("R1 negative Age is ignored", ["Cache-Control": "max-age=60", "Age": "-5"], lifetime: 60, logLines: 1),
        Row("R1 header names in any letter case", ["CACHE-CONTROL": "max-age=7", "age": "2"], lifetime: 5),
        // W4: RFC 9111 §4.2.1 encourages taking invalid freshness information as stale; these once fell back.
        Row(
            "W4 unreadable max-age is stale, whatever Expires says",
            ["Cache-Control": "max-age=soon", "Expires": inAnHour, "Date": date], lifetime: 0, logLines: 1),
        Row("W4 fractional max-age is stale", ["Cache-Control": "max-age=1.5"], lifetime: 0, logLines: 1),
        Row("W4 negative max-age is stale", ["Cache-Control": "max-age=-1"], lifetime: 0, logLines: 1),
        Row("W4 max-age without a value is stale", ["Cache-Control": "max-age"], lifetime: 0, logLines: 1),
        Row("W4 no-store is stale at once", ["Cache-Control": "no-store"], lifetime: 0),
        Row("W4 no-store wins over max-age", ["Cache-Control": "no-store, max-age=10000"], lifetime: 0),
        Row("W4 no-store wins over Expires", ["Cache-Control": "no-store", "Expires": inAnHour], lifetime: 0),
        Row("W4 Vary: * is stale at once", ["Cache-Control": "max-age=60", "Vary": "*"], lifetime: 0),
        Row("W4 Vary with * among names", ["Cache-Control": "max-age=60", "Vary": "Accept, * "], lifetime: 0),
        Row(
            "W4 Vary naming headers keeps the lifetime", ["Cache-Control": "max-age=60", "Vary": "Accept"], lifetime: 60
        ),
        Row("W4 must-revalidate without a lifetime is stale", ["Cache-Control": "must-revalidate"], lifetime: 0),
        Row(
            "W4 must-revalidate with Expires keeps Expires", ["Cache-Control": "must-revalidate", "Expires": inAnHour],
            lifetime: 3_600),
        Row("W4 proxy-revalidate is for shared caches only", ["Cache-Control": "proxy-revalidate"]),
        Row(
            "R1 malformed directive is ignored, the rest applies", ["Cache-Control": "max-age=6 0, max-age=30"],
            lifetime: 30, logLines: 1),
        Row("R1 s-maxage is for shared caches only", ["Cache-Control": "s-maxage=60"]),
        Row("R2 no-cache is stale at once", ["Cache-Control": "no-cache"], lifetime: 0),
        Row("R2 no-cache wins over max-age", ["Cache-Control": "max-age=60, no-cache"], lifetime: 0),
        Row("R2 max-age=0 is stale at once", ["Cache-Control": "max-age=0"], lifetime: 0),
        Row(
            "R2 qualified no-cache does not make it stale", ["Cache-Control": "no-cache=\"Set-Cookie\", max-age=60"],
            lifetime: 60),
        Row("R4 Retry-After in seconds", ["Retry-After": "120"], retryDelay: 120),
        Row("R4 Retry-After 0", ["Retry-After": "0"], retryDelay: 0),
        Row("R4 Retry-After as a date, against Date", ["Retry-After": inAnHour, "Date": date], retryDelay: 3_600),
        Row(
            "R4 Retry-After as a date, from a server whose clock is a day ahead",
            ["Retry-After": "Mon, 07 Nov 1994 08:50:37 GMT", "Date": "Mon, 07 Nov 1994 08:49:37 GMT"], retryDelay: 60),
        Row("R4 Retry-After as a date without Date counts from receipt", ["Retry-After": inAnHour], retryDelay: 3_600),
        Row(
            "R4 Retry-After in the past is now", ["Retry-After": "Sat, 05 Nov 1994 08:49:37 GMT", "Date": date],
            retryDelay: 0),
        Row(
            "R4 Retry-After in RFC 850 form", ["Retry-After": "Sunday, 06-Nov-94 08:50:37 GMT", "Date": date],
            retryDelay: 60),
        Row("R4 unreadable Retry-After is ignored", ["Retry-After": "later"], logLines: 1),
        Row("R4 negative Retry-After is ignored", ["Retry-After": "-10"], logLines: 1),
        Row("R4 fractional Retry-After is ignored", ["Retry-After": "1.5"], logLines: 1),
        Row("R4 Retry-After with spaces around it", ["Retry-After": " 30 "], retryDelay: 30),
        Row("W5 Retry-After is capped at an hour", ["Retry-After": "2147483647"], retryDelay: 3_600),
        Row("W5 Retry-After of exactly an hour", ["Retry-After": "3600"], retryDelay: 3_600),
        Row(
            "W5 Retry-After as a date next year is capped at an hour",
            ["Retry-After": "Mon, 06 Nov 1995 08:49:37 GMT", "Date": date], retryDelay: 3_600),
        Row(
            "R1 R4 freshness and Retry-After together", ["Cache-Control": "max-age=5", "Retry-After": "10"],
            lifetime: 5,
            retryDelay: 10),
    ]

    @Test("R1 R2 R4 W4 W5 headers to lifetime and Retry-After", arguments: rows)
    func reads(row: Row) {
        let lines = Self.logLines {
            let freshness = HTTPFreshness(headers: row.headers, receivedAt: Self.received)
            #expect(freshness.lifetime == row.lifetime)
            #expect(freshness.retryDelay == row.retryDelay)
            #expect(freshness.retryAfter == row.retryDelay.map { Self.received + $0 })
            #expect(freshness.isStaleAtOnce == (row.lifetime == 0))
        }
        #expect(lines.count == row.logLines, "\(lines)")
    }

    @Test(
        "R3 Last-Modified is kept as written when it is a date, and ignored otherwise",
        arguments: [
            ("Sun, 06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 GMT", 0),
            ("Sunday, 06-Nov-94 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", 0),
            ("last Tuesday", nil, 1),
        ] as [(String, String?, Int)])
    func lastModified(header: String, kept: String?, logLines: Int) {
        let lines = Self.logLines {
            #expect(HTTPFreshness(headers: ["Last-Modified": header], receivedAt: Self.received).lastModified == kept)
        }
        #expect(lines.count == logLines)
    }

    @Test("R1 without a lifetime of its own, the configured time applies, less the Age")
    func configuredTime() {
        #expect(HTTPFreshness(headers: [:], receivedAt: 0).expirationTime(configured: 30) == 30)
        #expect(HTTPFreshness(headers: ["Age": "10"], receivedAt: 0).expirationTime(configured: 30) == 20)
        #expect(HTTPFreshness(headers: ["Age": "100"], receivedAt: 0).expirationTime(configured: 30) == 0)
        #expect(
            HTTPFreshness(headers: ["Cache-Control": "max-age=5"], receivedAt: 0).expirationTime(configured: 30) == 5)
    }

    @Test("R4 an error's response headers give the moment to wait for")
    func fromError() {
        let entity = Entity<Any>(content: Data(), contentType: "text/plain", headers: ["Retry-After": "30"])
        let error = RequestError(httpStatusCode: 503, entity: entity, timestamp: 1_000)
        #expect(HTTPFreshness(error: error).retryAfter == 1_030)
        let transport = RequestError(userMessage: "offline", cause: URLError(.notConnectedToInternet), timestamp: 5)
        #expect(HTTPFreshness(error: transport).retryAfter == nil)
    }

    @Test("An unreadable header is logged once, quoted, in the staleness category")
    func logLine() {
        let lines = Self.logLines {
            _ = HTTPFreshness(headers: ["Age": "old\nline"], receivedAt: 0)
        }
        #expect(lines == [#"staleness: Ignored Age "old\nline": not a number of seconds"#])
    }

    /// The lines `body` logs in any category, on this task only.
    static func logLines(_ body: () -> Void) -> [String] {
        let recorder = RecordingLogHandler()
        ReposeLog.withEnabled(.all) {
            ReposeLog.withHandler(recorder.handler) { body() }
        }
        return recorder.lines
    }
}
