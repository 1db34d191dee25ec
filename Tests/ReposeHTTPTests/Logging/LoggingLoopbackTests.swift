import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// A logging suite: it takes turns with the others over the process-wide log settings (see `LoggingTests` in
/// ReposeRequestTests).
@Suite("Logging over real HTTP", .holdsLogSettings)
enum LoggingOverHTTPTests {}

extension LoggingOverHTTPTests {
    /// The same promises over real HTTP: URLSession delivers responses on its own queue, and its transport errors
    /// carry the URL in their user info.
    @MainActor
    @Suite("Log lines and secrets over real HTTP", .checksLifetimes)
    final class LoopbackTests {
        let fixture: IntegrationFixture
        let recorder = RecordingLogHandler()

        init() async throws {
            fixture = try await IntegrationFixture()
        }

        /// The server's URL for `path`, with a password in the user-info; `query` carries a token.
        func secretURL(_ path: String, query: String) -> String {
            "http://me:pa55word@127.0.0.1:\(fixture.server.port)\(path)?\(query)&access_token=s3cret"
        }

        func expectNoSecret(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(!text.contains("pa55word"), "\(text)", sourceLocation: sourceLocation)
            #expect(!text.contains("s3cret"), "\(text)", sourceLocation: sourceLocation)
        }

        @Test(
            "a response parsed on URLSession's queue logs its details and pipeline lines in the starting task's scope")
        func linesFollowTheScope() async throws {
            let resource = fixture.service.resource(absoluteURL: secretURL("/echo", query: "a=1"))
            try await ReposeLog.withEnabled([.networkDetails, .pipeline]) {
                try await ReposeLog.withHandler(recorder.handler) {
                    try #require(await fixture.completion(of: resource.load()) != nil)
                }
            }
            let subject = "GET http://me:<redacted>@127.0.0.1:\(fixture.server.port)/echo?a=1&access_token=<redacted>"
            #expect(recorder.lines.contains { $0.hasPrefix("networkDetails: \(subject) ← 200, ") })
            #expect(
                recorder.lines.contains("pipeline: \(subject): parsing → application/json (Dictionary<String, Any>)"))
            for line in recorder.lines { expectNoSecret(line) }
        }

        @Test("a real transport error shows neither the password nor the token, in the log or in the error")
        func transportError() async throws {
            let resource = fixture.service.resource(absoluteURL: secretURL("/drop", query: "send=10"))
            let info = try await ReposeLog.withEnabled(.all) {
                try await ReposeLog.withHandler(recorder.handler) {
                    try #require(await fixture.completion(of: resource.load()))
                }
            }
            let error = try #require(info.response.error)
            #expect(error.httpStatusCode == nil)
            #expect(recorder.lines.contains { $0.hasPrefix("networkDetails: GET http://me:<redacted>@") })
            #expect(recorder.lines.contains { $0.contains("→ failed: ") }, "\(recorder.lines)")
            for line in recorder.lines { expectNoSecret(line) }
            // Foundation's error quotes the URL, so the description shows it, redacted.
            #expect("\(error)".contains("http://me:<redacted>@127.0.0.1"), "\(error)")
            for text in ["\(error)", String(reflecting: error), error.userMessage, "\(resource)"] {
                expectNoSecret(text)
            }
        }
    }
}
