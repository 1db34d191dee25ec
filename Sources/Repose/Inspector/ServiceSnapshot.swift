import Foundation

/// Every live resource of a service at one moment, as returned by ``Service/inspect()``.
///
/// Printing it gives a table, one resource per line:
///
/// ```
/// url                                                    state          age  fresh  obs  req  size  etag  last                  error
/// https://api.example.com/broken                         error         0.0s  yes      0    0     -  -     -                     Not found
/// https://api.example.com/search?q=ada&token=<redacted>  loading+data  3.0s  yes      1    1    14  "v1"  0.120s 14B network  -
/// ```
///
/// URLs and error messages have their secrets hidden. The `last` column shows the latest request's duration, body
/// bytes received and source, for resources whose requests a monitor measures (see
/// ``Service/monitorRequests(matching:owner:started:completed:)-(_,AnyObject,_,_)``); `-` elsewhere.
///
/// A `Sendable` value: keep it, compare two of them, or hand it to another task.
public struct ServiceSnapshot: Sendable, Hashable, CustomStringConvertible {
    /// The service's clock when the snapshot was taken, in seconds since 1970 (virtual time under a test
    /// scheduler).
    public var time: TimeInterval
    /// Each live resource, ordered by URL.
    public var resources: [ResourceSnapshot]

    /// Creates a snapshot from its parts.
    ///
    /// - Parameters:
    ///   - time: The service's clock when the snapshot was taken.
    ///   - resources: The resources it shows.
    public init(time: TimeInterval, resources: [ResourceSnapshot]) {
        self.time = time
        self.resources = resources
    }

    /// The snapshot as a table: ``table(maximumErrorLength:)`` with its defaults.
    public var description: String { table() }

    /// The snapshot as a text table with a header line and one line per resource; columns are padded to their
    /// widest cell.
    ///
    /// - Parameter maximumErrorLength: Error messages longer than this are cut, ending with `…`.
    /// - Returns: The table, lines separated by newlines, ending without one.
    public func table(maximumErrorLength: Int = 60) -> String {
        let header = ["url", "state", "age", "fresh", "obs", "req", "size", "etag", "last", "error"]
        let rows = resources.map { row(for: $0, maximumErrorLength: maximumErrorLength) }
        return Self.format([header] + rows, rightAligned: [2, 4, 5, 6])
    }

    private func row(for resource: ResourceSnapshot, maximumErrorLength: Int) -> [String] {
        [
            resource.url,
            resource.status,
            resource.age.map { String(format: "%.1fs", $0) } ?? "-",
            resource.isUpToDate ? "yes" : "no",
            String(resource.observerCount),
            resource.requestsQueued > 0
                ? "\(resource.requestsInFlight) (\(resource.requestsQueued) queued)"
                : String(resource.requestsInFlight),
            resource.contentSize.map(String.init) ?? "-",
            resource.etag ?? "-",
            Self.lastRequest(of: resource),
            resource.latestErrorMessage.map { Self.cut(Self.oneLine($0), to: maximumErrorLength) } ?? "-",
        ]
    }

    private static func format(_ rows: [[String]], rightAligned: Set<Int>) -> String {
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.indices.map { column in
                let padding = String(repeating: " ", count: widths[column] - row[column].count)
                if column == row.count - 1 { return row[column] }
                return rightAligned.contains(column) ? padding + row[column] : row[column] + padding
            }
            .joined(separator: "  ")
        }
        .joined(separator: "\n")
    }

    /// The `last` cell: duration, bytes received and source of the latest monitored request, or `-`.
    private static func lastRequest(of resource: ResourceSnapshot) -> String {
        guard let duration = resource.lastRequestDuration, let source = resource.lastRequestSource else { return "-" }
        return String(format: "%.3fs", duration) + " \(resource.lastRequestBytes ?? 0)B \(source)"
    }

    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }

    private static func cut(_ text: String, to length: Int) -> String {
        guard text.count > max(length, 1) else { return text }
        return text.prefix(max(length, 1) - 1) + "…"
    }
}
