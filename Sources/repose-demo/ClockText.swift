import Foundation

/// Times as a screen shows them: "12:31" in a status line, "12:31:05" where seconds matter.
enum ClockText {
    /// `seconds` since 1970 as hours and minutes, in the local time zone.
    static func minutes(_ seconds: TimeInterval) -> String {
        format(seconds, "HH:mm")
    }

    /// `seconds` since 1970 as hours, minutes and seconds, in the local time zone.
    static func seconds(_ seconds: TimeInterval) -> String {
        format(seconds, "HH:mm:ss")
    }

    private static func format(_ seconds: TimeInterval, _ pattern: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = pattern
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }
}
