// The Swift blocks of Docs/Logging.md, verbatim: GuideSnippetTests checks that every block appears here, and the
// page's test runs as LoggingGuideTests.
import Foundation
import Repose
import ReposeTesting
import Testing

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

    @MainActor
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

    @Test("the formatters print what the page's comments show")
    func formatters() throws {
        loggingGuidePrinted = []
        var request = URLRequest(url: try #require(URL(string: "https://api.example.com/me")))
        request.setValue("Bearer t0k3n", forHTTPHeaderField: "Authorization")
        request.httpBody = Data(count: 42)
        LoggingGuide.formatters(
            response: NetworkResponse(statusCode: 200, headers: ["Content-Type": "text/plain", "Set-Cookie": "id=1"]),
            url: try #require(URL(string: "https://api.example.com/feed?api_key=k3y")),
            urlRequest: request,
            networkResponse: NetworkResponse(
                statusCode: 200, headers: ["Content-Type": "application/json"], body: Data(count: 1532)),
            error: RequestError(userMessage: "Failed", cause: URLError(.badURL, userInfo: [:])))
        #expect(loggingGuidePrinted.count == 6)
        #expect(loggingGuidePrinted.first?.contains(#""Cookie": "<redacted>""#) == true)
        #expect(
            loggingGuidePrinted.dropFirst().prefix(4) == [
                #"[Content-Type: "text/plain", Set-Cookie: <redacted>]"#,
                "https://api.example.com/feed?api_key=<redacted>",
                "GET https://api.example.com/me [Authorization: <redacted>], body 42 bytes",
                #"200, 1532 bytes [Content-Type: "application/json"]"#,
            ])
        #expect(loggingGuidePrinted.joined().contains("t0k3n") == false)
        #expect(loggingGuidePrinted.joined().contains("k3y") == false)
    }
}
