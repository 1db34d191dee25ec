import Testing

@testable import Repose
@testable import ReposeTestSupport

@Suite("HTTP dates in all three formats")
struct HTTPDateTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let text: String
        let expected: Double?
        var testDescription: String { name }

        init(_ name: String, _ text: String, _ expected: Double?) {
            self.name = name
            self.text = text
            self.expected = expected
        }
    }

    /// 1994-11-06 08:49:37 UTC, the example every HTTP specification uses.
    static let example: Double = 784_111_777
    /// When the rows are read: 2025-01-01, so that RFC 850 years fall either side of the 50-year rule.
    static let now: Double = 1_735_689_600

    static let rows: [Row] = [
        Row("R1 IMF-fixdate", "Sun, 06 Nov 1994 08:49:37 GMT", example),
        Row("R1 RFC 850", "Sunday, 06-Nov-94 08:49:37 GMT", example),
        Row("R1 asctime, one-digit day after a space", "Sun Nov  6 08:49:37 1994", example),
        Row("R1 asctime, two-digit day", "Thu Nov 24 08:49:37 1994", example + 18 * 86_400),
        Row("R1 names in any letter case", "SUN, 06 NOV 1994 08:49:37 gmt", example),
        Row("R1 spaces around the value", "  Sun, 06 Nov 1994 08:49:37 GMT\t", example),
        Row("R1 the epoch", "Thu, 01 Jan 1970 00:00:00 GMT", 0),
        Row("R1 before the epoch", "Wed, 31 Dec 1969 23:59:59 GMT", -1),
        Row("R1 29 February of a leap year", "Tue, 29 Feb 2000 00:00:00 GMT", 951_782_400),
        Row("R1 leap second counts as the 59th", "Fri, 31 Dec 1999 23:59:60 GMT", 946_684_799),
        Row("R1 a wrong day name is not checked against the date", "Mon, 06 Nov 1994 08:49:37 GMT", example),
        Row("R1 RFC 850 year within 50 years ahead", "Thursday, 01-Jan-37 00:00:00 GMT", 2_114_380_800),
        Row("R1 RFC 850 year more than 50 years ahead is in the past", "Friday, 01-Jan-99 00:00:00 GMT", 915_148_800),
        Row("invalid: empty", "", nil),
        Row("invalid: zero, as Expires often says", "0", nil),
        Row("invalid: seconds", "120", nil),
        Row("invalid: 29 February of a common year", "Thu, 29 Feb 2001 00:00:00 GMT", nil),
        Row("invalid: 29 February 1900", "Thu, 29 Feb 1900 00:00:00 GMT", nil),
        Row("invalid: 31 April", "Thu, 31 Apr 1994 00:00:00 GMT", nil),
        Row("invalid: day 0", "Sun, 00 Nov 1994 08:49:37 GMT", nil),
        Row("invalid: hour 24", "Sun, 06 Nov 1994 24:00:00 GMT", nil),
        Row("invalid: minute 60", "Sun, 06 Nov 1994 08:60:37 GMT", nil),
        Row("invalid: second 61", "Sun, 06 Nov 1994 08:49:61 GMT", nil),
        Row("invalid: unknown month", "Sun, 06 Noe 1994 08:49:37 GMT", nil),
        Row("invalid: unknown day name", "Sux, 06 Nov 1994 08:49:37 GMT", nil),
        Row("invalid: long day name in IMF-fixdate form", "Sunday, 06 Nov 1994 08:49:37 GMT", nil),
        Row("invalid: short day name in RFC 850 form", "Sun, 06-Nov-94 08:49:37 GMT", nil),
        Row("invalid: another zone", "Sun, 06 Nov 1994 08:49:37 PST", nil),
        Row("invalid: numeric zone", "Sun, 06 Nov 1994 08:49:37 +0000", nil),
        Row("invalid: zone missing", "Sun, 06 Nov 1994 08:49:37", nil),
        Row("invalid: one-digit day in IMF-fixdate", "Sun, 6 Nov 1994 08:49:37 GMT", nil),
        Row("invalid: two-digit year in IMF-fixdate", "Sun, 06 Nov 94 08:49:37 GMT", nil),
        Row("invalid: five-digit year", "Sun, 06 Nov 19940 08:49:37 GMT", nil),
        Row("invalid: trailing text", "Sun, 06 Nov 1994 08:49:37 GMT extra", nil),
        Row("invalid: asctime with a zone", "Sun Nov  6 08:49:37 1994 GMT", nil),
        Row("invalid: asctime one-digit day without the space", "Sun Nov 6 08:49:37 1994", nil),
        Row("invalid: ISO 8601", "1994-11-06T08:49:37Z", nil),
        Row("invalid: non-ASCII digits", "Sun, ٠٦ Nov 1994 08:49:37 GMT", nil),
        Row("invalid: missing seconds", "Sun, 06 Nov 1994 08:49 GMT", nil),
    ]

    @Test("R1 R4 an HTTP date is read, or refused", arguments: rows)
    func parses(row: Row) {
        #expect(HTTPDate.seconds(from: row.text, now: Self.now) == row.expected)
    }

    @Test("R1 an RFC 850 year is placed relative to when it is read")
    func twoDigitYearFollowsNow() {
        let text = "Thursday, 01-Jan-37 00:00:00 GMT"
        #expect(HTTPDate.seconds(from: text, now: Self.now) == 2_114_380_800)  // 2037, 12 years ahead of 2025
        #expect(HTTPDate.seconds(from: text, now: 0) == -1_041_379_200)  // 1937: 2037 is 67 years ahead of 1970
    }
}
