// The Swift blocks of Docs/Logging.md, verbatim: GuideSnippetTests checks that every block appears here, and the
// page's test runs as LoggingGuideTests.
import Foundation
import Repose
import ReposeTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The page prints what it shows; in the test run that would be noise.
private func print(_ items: Any...) {}

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
        ReposeLog.enabled = .none  // off again (the default)
    }

    static func sendingLinesElsewhere() {
        let logger = Logger(label: "com.example.app.repose")
        ReposeLog.messageHandler = { category, message in
            logger.debug("\(message)", metadata: ["category": "\(category)"])
        }
    }

    static func ownLines(users: [User]) {
        ReposeLog.log(.pipeline, "decoded \(users.count) users")
        if ReposeLog.isEnabled(.networkDetails) {
            // prepare something expensive, then log it
        }
    }

    static func sensitiveNames() {
        ReposeLog.sensitiveNames.exactNames.insert("X-Session")
        ReposeLog.sensitiveNames.fragments.insert("signature")  // X-Amz-Signature=…
    }

    static func formatters(
        response: NetworkResponse, url: URL, urlRequest: URLRequest, networkResponse: NetworkResponse,
        error: RequestError
    ) {
        let headers = ["Cookie": "id=1", "Accept": "*/*"]
        print(ReposeLog.redactingHeaders(headers))  // ["Cookie": "<redacted>", "Accept": "*/*"]
        print(ReposeLog.describe(headers: response.headers))  // [Content-Type: "text/plain", Set-Cookie: <redacted>]
        print(ReposeLog.describe(url: url))  // https://api.example.com/feed?api_key=<redacted>
        print(ReposeLog.describe(urlRequest))  // GET https://… [Authorization: <redacted>], body 42 bytes
        print(ReposeLog.describe(networkResponse))  // 200, 1532 bytes [Content-Type: "application/json"]
        print(ReposeLog.redactingURLs(in: "\(error)"))  // every URL in the text, redacted where it stands
    }

    static func optingOut() {
        ReposeLog.redactsSecrets = false  // the default is true
    }
}

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
        await ReposeLog.withEnabled(.network) {
            await ReposeLog.withHandler({ _, message in lines.append(message) }) {
                _ = await resource.load().responseInfo
            }
        }
        #expect(lines.all.first == "GET https://api.example.com/users/42")
    }
}
