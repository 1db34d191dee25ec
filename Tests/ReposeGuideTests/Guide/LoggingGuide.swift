// The Swift blocks of Docs/Logging.md, verbatim: GuideSnippetTests checks that every block appears here, and the
// page's test runs as LoggingGuideTests.
import Foundation
import Repose
import ReposeTesting
import Testing

@testable import ReposeTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The page prints what it shows; here `print` records it instead, for LoggingGuideTests to check.
@MainActor var loggingGuidePrinted: [String] = []

@MainActor
private func print(_ items: Any...) {
    loggingGuidePrinted.append(items.map { "\($0)" }.joined(separator: " "))
}

/// The page's "own thread-safe list" of log lines.
final class LockedLines: @unchecked Sendable {  // Safe: `lines` is only read and written under `lock`.
    private let lock = NSLock()
    private var lines: [String] = []

    var all: [String] { lock.withLock { lines } }

    func append(_ line: String) { lock.withLock { lines.append(line) } }
}

enum LoggingGuide {
    /// Stands in for swift-log's `Logger`, which this package does not depend on.
    struct Logger: Sendable {
        let label: String

        init(label: String) { self.label = label }

        func debug(_ message: String, metadata: [String: String]) {}
    }

    struct User {}

    static func turningItOn() {
        ReposeLog.enabled = .common  // requests, state changes, load decisions
        ReposeLog.enabled = [.network, .stateChanges]  // or exactly the categories you want
        ReposeLog.enabled.insert(.observers)  // it is an option set
        ReposeLog.enabled = []  // off again (the default)
    }

    static func sendingLinesElsewhere() {
        let logger = Logger(label: "com.example.app.repose")
        ReposeLog.messageHandler = { category, message in
            logger.debug("\(message)", metadata: ["category": "\(category)"])
        }
    }

    static func sensitiveNames() {
        ReposeLog.sensitiveNames.exactNames.insert("X-Session")
        ReposeLog.sensitiveNames.fragments.insert("signature")  // X-Amz-Signature=…
    }

    @MainActor
    static func formatters(url: URL, error: RequestError) {
        let headers = ["Cookie": "id=1", "Accept": "*/*"]
        print(ReposeLog.redactingHeaders(headers))  // ["Cookie": "<redacted>", "Accept": "*/*"]
        print(ReposeLog.describe(url: url))  // https://api.example.com/feed?api_key=<redacted>
        print("\(error)")  // a RequestError's description redacts the URLs it quotes
    }
}

/// The page's test sets the process-wide log settings, which the logging suites read: it takes turns with them.
@Suite("Logging guide", .holdsLogSettings)
enum LoggingGuideSuites {}

extension LoggingGuideSuites {
    @MainActor
    @Suite("The test on the logging page", .checksLifetimes)
    struct LoggingGuideTests {
        let network = StubNetworkingProvider()
        let service: Service
        let resource: Resource

        init() {
            network.stub(.get, "https://api.example.com/users/42", json: ["name": "Ada"])
            service = Service(baseURL: "https://api.example.com", options: .init(networking: network))
            LifetimeCheck.track(service)
            resource = service.resource("/users/42")
        }

        @Test func loadingLogsTheRequest() async {
            let lines = LockedLines()  // your own thread-safe list
            let previous = (ReposeLog.enabled, ReposeLog.messageHandler)
            defer { (ReposeLog.enabled, ReposeLog.messageHandler) = previous }
            ReposeLog.enabled = .network
            ReposeLog.messageHandler = { _, message in lines.append(message) }
            _ = await resource.load().responseInfo
            #expect(lines.all.contains("GET https://api.example.com/users/42"))
        }

        @Test("the formatters print what the page's comments show")
        func formatters() throws {
            loggingGuidePrinted = []
            let secret = "https://me:pa55@api.example.com/?token=t0k3n"
            LoggingGuide.formatters(
                url: try #require(URL(string: "https://api.example.com/feed?api_key=k3y")),
                error: RequestError(
                    userMessage: "Failed",
                    cause: URLError(.badURL, userInfo: ["NSErrorFailingURLStringKey": secret])))
            #expect(loggingGuidePrinted.count == 3)
            #expect(loggingGuidePrinted.first?.contains(#""Cookie": "<redacted>""#) == true)
            #expect(loggingGuidePrinted.dropFirst().first == "https://api.example.com/feed?api_key=<redacted>")
            #expect(loggingGuidePrinted.joined().contains("k3y") == false)
            #expect(loggingGuidePrinted.joined().contains("t0k3n") == false)
        }
    }
}
