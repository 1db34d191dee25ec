// The Swift blocks of Docs/Metrics.md, verbatim: GuideSnippetTests checks that every block appears here.
import Foundation
import Repose

// The first monitor: a screen's, by URL pattern.
@MainActor final class SearchScreen {
    init(api: Service) {
        api.monitorRequests(matching: "/search/**", owner: self) { metrics in
            print("\(metrics.url.path): \(metrics.duration) s, \(metrics.bytesReceived) bytes")
        }
    }
}

// Log slow requests.
@MainActor func logSlowRequests(of api: Service) {
    api.monitorRequests(owner: api) { metrics in
        guard metrics.duration > 1.5 else { return }
        let url = ReposeLog.describe(url: metrics.url)  // query secrets redacted
        let firstByte = metrics.timeToFirstByte.map { String(format: "%.2f s", $0) } ?? "-"
        print("slow: \(metrics.method.rawValue) \(url) took \(metrics.duration) s (first byte \(firstByte))")
    }
}

// The metrics-system recipe.
@MainActor final class NetworkStats {
    private(set) var inFlight = 0
    private(set) var durations: [String: [TimeInterval]] = [:]
    private(set) var bytes: Int64 = 0
    private(set) var notModified = 0

    init(api: Service) {
        api.monitorRequests(matching: "/api/**", owner: self, started: { stats, _, _ in stats.inFlight += 1 }) {
            stats, metrics in stats.record(metrics)
        }
    }

    private func record(_ metrics: RequestMetrics) {
        inFlight -= 1
        durations[metrics.url.path, default: []].append(metrics.duration)
        bytes += metrics.bytesReceived + metrics.bytesSent
        if metrics.source == .notModified { notModified += 1 }
    }
}

// See what reached the server.
@MainActor func showTraffic(of api: Service) {
    api.monitorRequests(
        owner: api,
        started: { method, url in
            print("→ \(method.rawValue) \(ReposeLog.describe(url: url))")
        }
    ) { metrics in
        let status = metrics.statusCode.map(String.init) ?? "-"
        print("← \(status) \(metrics.source) \(metrics.bytesReceived) B in \(metrics.duration) s")
    }
}
