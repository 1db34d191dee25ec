// The Swift blocks of Docs/Networking.md, verbatim: GuideSnippetTests checks that every block appears here.
import Foundation
import Repose

@testable import ReposeTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The page prints what it shows; in the test run that would be noise, so here `print` records instead.
@MainActor private(set) var networkingGuidePrinted: [String] = []

@MainActor
private func print(_ items: Any...) {
    networkingGuidePrinted.append(items.map { "\($0)" }.joined(separator: " "))
}

@MainActor
func networkingGuideService() -> Service {
    let configuration = URLSessionProvider.defaultConfiguration
    configuration.timeoutIntervalForRequest = 20  // seconds without a byte before a request fails
    configuration.timeoutIntervalForResource = 120  // seconds for a whole exchange
    configuration.httpAdditionalHeaders = ["User-Agent": "Reader/2.1"]
    let api = Service(
        baseURL: "https://api.example.com/v1",
        options: .init(networking: URLSessionProvider(configuration: configuration)))
    return api
}

@MainActor
func networkingGuideConfigureReports(_ api: Service) {
    api.configure("/reports/**") {
        $0.mutateRequests { $0.timeoutInterval = 300 }  // reports are slow: five minutes
    }
}

@MainActor
func networkingGuideOneRequest(_ api: Service) -> Resource {
    let report = api.resource("/reports/2025")
    report.load(using: report.request(.get) { $0.timeoutInterval = 300 })
    return report
}

@MainActor
func networkingGuideTimeout(_ report: Resource) -> Request {
    report.load().onFailure { error in
        if let failure = error.cause as? URLError, failure.code == .timedOut {
            print(error.userMessage)  // "The server took too long to respond."
        }
    }
}
