import Foundation

/// The table the driver prints, and the allocation counts it can write for `check-mallocs.py`.
struct AppLikeReport {
    var results: [CaseResult] = []

    static let header = """
        | case | samples | p0 | p50 | mallocs (p50) | own figures (p50) |
        |---|---|---|---|---|---|
        """

    /// One Markdown row: times and mallocs per inner iteration, the case's own figures as recorded.
    static func row(_ result: CaseResult) -> String {
        let scale = max(result.scale, 1)
        let times = result.nanoseconds.sorted()
        let mallocs = result.mallocs.sorted()
        let p0 = times.first.map { duration(Double($0) / Double(scale)) } ?? "—"
        let p50 = percentile(times, 50).map { duration(Double($0) / Double(scale)) } ?? "—"
        let mallocFigure = percentile(mallocs, 50).map { count(Double($0) / Double(scale)) } ?? "—"
        let own = result.customOrder.compactMap { name -> String? in
            guard let values = result.custom[name]?.sorted(), let median = percentile(values, 50) else { return nil }
            return "\(name) \(median)"
        }
        let perIteration = scale > 1 ? " (per inner iteration of \(scale))" : ""
        return "| \(result.name)\(perIteration) | \(times.count) | \(p0) | \(p50) | \(mallocFigure) | "
            + "\(own.isEmpty ? "—" : own.joined(separator: ", ")) |"
    }

    /// The allocation counts per sample (not per inner iteration), in the shape of ordo-one's JMH export.
    func jmhJSON() -> String {
        let entries = results.compactMap { result -> [String: Any]? in
            guard let median = Self.percentile(result.mallocs.sorted(), 50) else { return nil }
            let name = result.name.replacingOccurrences(of: " ", with: "_")
            return [
                "benchmark": "package.benchmark.AppLikeBenchmarks.\(name)",
                "secondaryMetrics": ["Malloc (total)": ["scorePercentiles": ["50.0": median]]],
            ]
        }
        guard let data = try? JSONSerialization.data(withJSONObject: entries, options: [.sortedKeys]) else {
            return "[]"
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// The value at percentile `p` of sorted `values` (nearest rank), `nil` for none.
    static func percentile(_ values: [Int], _ p: Int) -> Int? {
        guard !values.isEmpty else { return nil }
        let rank = Int((Double(p) / 100 * Double(values.count)).rounded(.up))
        return values[min(max(rank - 1, 0), values.count - 1)]
    }

    static func duration(_ nanoseconds: Double) -> String {
        switch nanoseconds {
        case ..<1_000: String(format: "%.1f ns", nanoseconds)
        case ..<1_000_000: String(format: "%.2f µs", nanoseconds / 1_000)
        case ..<1_000_000_000: String(format: "%.2f ms", nanoseconds / 1_000_000)
        default: String(format: "%.2f s", nanoseconds / 1_000_000_000)
        }
    }

    static func count(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.3f", value)
    }
}
