import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// Header parsers against random and damaged input, and HTTP dates against Foundation's own formatting as an oracle.
@MainActor
@Suite("Header fuzz: dates and directives from random text")
struct HeaderFuzzTests {
    static let pieces: [String] = [
        "Sun", "Sunday", "Nov", "nov", "Feb", ",", " ", "  ", "\t", "-", ":", "GMT", "UTC", "06", "6", "29", "31", "94",
        "1994", "08:49:37", "23:59:60", "24:00:00", "max-age", "no-cache", "no-store", "=", "\"", "\\", "\\\"", ";",
        "0", "-1", "99999999999999999999", "1.5", "\u{0}", "\n", "é", "٠٦", "\u{FFFD}", "private", "s-maxage=",
    ]

    static func text(_ fuzzCase: inout FuzzCase) -> String {
        (0..<fuzzCase.int(in: 0...12)).map { _ in
            fuzzCase.chance(85) ? fuzzCase.pick(pieces) : String(FuzzText.scalar(&fuzzCase))
        }.joined()
    }

    @Test("R1 R4 10,000 random header values never crash, and every lifetime and wait is finite and not negative")
    func randomHeaders() async {
        let names = ["Cache-Control", "Expires", "Date", "Age", "Retry-After", "Last-Modified"]
        await FuzzRun().check("random headers", cases: 10_000, filter: "HeaderFuzz") { fuzzCase in
            var headers: [String: String] = [:]
            for name in names where fuzzCase.chance(50) {
                headers[name] = Self.text(&fuzzCase)
            }
            fuzzCase.note("headers \(headers.debugDescription)")
            let freshness = ReposeLog.withEnabled([]) { HTTPFreshness(headers: headers, receivedAt: 1_000) }
            for value in [freshness.lifetime, freshness.retryDelay, Optional(freshness.age)].compactMap({ $0 }) {
                guard value.isFinite, value >= 0 else { return "a negative or infinite figure: \(freshness)" }
            }
            return nil
        }
    }

    @Test("R1 random instants written in each HTTP date format read back as the same instant")
    func datesAgainstFoundation() async {
        let formats = [
            "EEE, dd MMM yyyy HH:mm:ss 'GMT'", "EEEE, dd-MMM-yy HH:mm:ss 'GMT'", "EEE MMM d HH:mm:ss yyyy",
        ]
        let formatters = formats.map { format in
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            return formatter
        }
        let now: Double = 1_735_689_600  // 2025-01-01: two-digit years cover 1976–2075
        await FuzzRun().check("dates", cases: 3_000, filter: "HeaderFuzz") { fuzzCase in
            let index = fuzzCase.int(in: 0...2)
            // Whole seconds; RFC 850 only within its two-digit window.
            let range = index == 1 ? 220_000_000...3_300_000_000 : -2_000_000_000...8_000_000_000
            let instant = Double(fuzzCase.int(in: range))
            var text = formatters[index].string(from: Date(timeIntervalSince1970: instant))
            if index == 2, let space = text.firstIndex(of: " "), text[text.index(space, offsetBy: 5)] != " " {
                // asctime pads a one-digit day with a space: "Nov  6".
                let dayStart = text.index(space, offsetBy: 5)
                if text[text.index(after: dayStart)] == " " { text.insert(" ", at: dayStart) }
            }
            fuzzCase.note("\(instant) as \(text.debugDescription)")
            let read = HTTPDate.seconds(from: text, now: now)
            return read == instant ? nil : "read as \(read.map { "\($0)" } ?? "nil")"
        }
    }
}
