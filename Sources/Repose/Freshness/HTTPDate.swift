/// Reads the dates HTTP headers carry (`Date`, `Expires`, `Last-Modified`, `Retry-After`) in the three formats HTTP
/// accepts, by hand: `DateFormatter` is slow, and on Linux it follows the process's locale.
///
/// | format | example |
/// |---|---|
/// | IMF-fixdate, what servers send today | `Sun, 06 Nov 1994 08:49:37 GMT` |
/// | obsolete RFC 850 | `Sunday, 06-Nov-94 08:49:37 GMT` |
/// | obsolete asctime | `Sun Nov  6 08:49:37 1994` |
///
/// Names of days and months, and `GMT`, are matched in any letter case; spaces around the whole value are ignored;
/// everything else must be exactly as the format says. The day name is checked to be a day name, not to be the
/// right one for the date. A second of 60 (a leap second) counts as the last second of its minute.
enum HTTPDate {
    /// Seconds since 1970 (UTC) for `text`, or `nil` when it is not a valid HTTP date.
    ///
    /// - Parameters:
    ///   - text: A header value.
    ///   - now: Seconds since 1970, to place an RFC 850 two-digit year: the latest year with those digits that is
    ///     no more than 50 years after `now`, as HTTP prescribes.
    static func seconds(from text: String, now: Double) -> Double? {
        var reader = HeaderFieldScanner(text)
        reader.skipSpaces()
        guard let dayName = reader.letters() else { return nil }
        let date: Fields?
        if reader.skip(",") {
            guard reader.skip(" ") else { return nil }
            if dayName.count == 3, Self.shortDays.contains(dayName) {
                date = imfFixdate(&reader)
            } else if Self.longDays.contains(dayName) {
                date = rfc850(&reader, now: now)
            } else {
                return nil
            }
        } else {
            guard Self.shortDays.contains(dayName), reader.skip(" ") else { return nil }
            date = asctime(&reader)
        }
        reader.skipSpaces()
        guard let date, reader.isAtEnd else { return nil }
        return date.secondsSince1970
    }

    /// `06 Nov 1994 08:49:37 GMT`, after the day name and `, `.
    private static func imfFixdate(_ reader: inout HeaderFieldScanner) -> Fields? {
        guard let day = reader.digits(exactly: 2), reader.skip(" "), let month = reader.month(), reader.skip(" "),
            let year = reader.digits(exactly: 4), reader.skip(" "), let time = reader.time(), reader.skip(" "),
            reader.letters() == "gmt"
        else { return nil }
        return Fields(year: year, month: month, day: day, time: time)
    }

    /// `06-Nov-94 08:49:37 GMT`, after the day name and `, `.
    private static func rfc850(_ reader: inout HeaderFieldScanner, now: Double) -> Fields? {
        guard let day = reader.digits(exactly: 2), reader.skip("-"), let month = reader.month(), reader.skip("-"),
            let shortYear = reader.digits(exactly: 2), reader.skip(" "), let time = reader.time(), reader.skip(" "),
            reader.letters() == "gmt"
        else { return nil }
        // The latest year ending in these digits that is at most 50 years ahead of now.
        let latest = Fields.year(of: now) + 50
        let year = latest - ((latest - shortYear) % 100 + 100) % 100
        return Fields(year: year, month: month, day: day, time: time)
    }

    /// `Nov  6 08:49:37 1994`, after the day name and a space: the day is two digits, or a space and one digit.
    private static func asctime(_ reader: inout HeaderFieldScanner) -> Fields? {
        guard let month = reader.month(), reader.skip(" ") else { return nil }
        let day: Int?
        if reader.skip(" ") {
            day = reader.digits(exactly: 1)
        } else {
            day = reader.digits(exactly: 2)
        }
        guard let day, reader.skip(" "), let time = reader.time(), reader.skip(" "),
            let year = reader.digits(exactly: 4)
        else { return nil }
        return Fields(year: year, month: month, day: day, time: time)
    }

    private static let shortDays: Set<String> = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    private static let longDays: Set<String> = [
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
    ]
    fileprivate static let months = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ]
}

/// A calendar date and time of day, checked, turned into seconds since 1970.
private struct Fields {
    let year: Int
    let month: Int
    let day: Int
    let time: (hour: Int, minute: Int, second: Int)

    var secondsSince1970: Double? {
        guard (1...12).contains(month), (1...Self.daysIn(month, of: year)).contains(day) else { return nil }
        let days = Self.daysSince1970(year: year, month: month, day: day)
        return Double(days * 86_400 + time.hour * 3_600 + time.minute * 60 + min(time.second, 59))
    }

    static func daysIn(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to the date in the proleptic Gregorian calendar (Howard Hinnant's `days_from_civil`).
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The calendar year that `seconds` since 1970 falls in.
    static func year(of seconds: Double) -> Int {
        guard seconds.isFinite, abs(seconds) < 1e15 else { return 1970 }
        var year = 1970 + Int((seconds / 31_556_952).rounded(.down))
        let days = Int((seconds / 86_400).rounded(.down))
        while daysSince1970(year: year, month: 1, day: 1) > days { year -= 1 }
        while daysSince1970(year: year + 1, month: 1, day: 1) <= days { year += 1 }
        return year
    }
}

// The fields of a date. A read that fails ends the parse, so none needs to undo what it consumed.
extension HeaderFieldScanner {
    /// A run of ASCII letters, lowercased; `nil` when there is none.
    fileprivate mutating func letters() -> String? {
        let word = read(upTo: { !(0x41...0x5A).contains($0) && !(0x61...0x7A).contains($0) })
        return word.isEmpty ? nil : word.lowercased()
    }

    fileprivate mutating func month() -> Int? {
        letters().flatMap { HTTPDate.months.firstIndex(of: $0) }.map { $0 + 1 }
    }

    /// `HH:MM:SS` with hours 0–23, minutes 0–59, seconds 0–60.
    fileprivate mutating func time() -> (hour: Int, minute: Int, second: Int)? {
        guard let hour = digits(exactly: 2), hour < 24, skip(":"), let minute = digits(exactly: 2), minute < 60,
            skip(":"), let second = digits(exactly: 2), second <= 60
        else { return nil }
        return (hour, minute, second)
    }

    /// A number of exactly `count` digits, not followed by another digit.
    fileprivate mutating func digits(exactly count: Int) -> Int? {
        let number = readNumber()
        return number.digits == count ? number.value : nil
    }
}
