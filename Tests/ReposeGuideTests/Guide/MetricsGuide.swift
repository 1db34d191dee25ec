// The Swift blocks of Docs/Metrics.md, verbatim: GuideSnippetTests checks that every block appears here.
import Foundation
import Repose

@testable import ReposeTestSupport

enum MetricsGuide {
    @MainActor
    static func firstMonitor(api: Service) {
        api.configure("/search/**") {
            $0.monitorRequests { metrics in
                print("\(metrics.url.path): \(metrics.duration) s, \(metrics.bytesReceived) bytes")
            }
        }
    }

    @MainActor
    static func slowRequests(api: Service) {
        api.configure {
            $0.monitorRequests { metrics in
                guard metrics.duration > 1.5 else { return }
                let url = ReposeLog.describe(url: metrics.url)  // query secrets redacted
                let firstByte = metrics.timeToFirstByte.map { String(format: "%.2f s", $0) } ?? "-"
                print("slow: \(metrics.method.rawValue) \(url) took \(metrics.duration) s (first byte \(firstByte))")
            }
        }
    }
}

// The metrics-system recipe.
@MainActor final class NetworkStats {
    private(set) var inFlight = 0
    private(set) var durations: [String: [TimeInterval]] = [:]
    private(set) var bytes: Int64 = 0
    private(set) var notModified = 0

    func attach(to api: Service) {
        api.configure("/api/**") {
            $0.monitorRequests(started: { [weak self] _, _ in self?.inFlight += 1 }) { [weak self] metrics in
                self?.record(metrics)
            }
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
    api.configure(description: "traffic") {
        $0.monitorRequests(started: { method, url in
            print("→ \(method.rawValue) \(ReposeLog.describe(url: url))")
        }) { metrics in
            let status = metrics.statusCode.map(String.init) ?? "no response"
            print("← \(status) \(metrics.source) \(metrics.bytesReceived) B in \(metrics.duration) s")
        }
    }
}
