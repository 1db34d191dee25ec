import Foundation
import ReposeTesting
import Testing

@testable import Repose
@testable import ReposeTestSupport

extension LoggingTests {
    /// Everything Repose writes as text, for a resource whose URL carries credentials and for errors that carry request
    /// bodies: none of it shows the secrets.
    @MainActor
    @Suite("Secrets stay out of text", .checksLifetimes)
    struct SecretsTests {
        static let secretURL = "https://me:pa55word@zingle.frotz/v1/a?access_token=s3cret&page=2"
        static let loggableURL = "https://me:<redacted>@zingle.frotz/v1/a?access_token=<redacted>&page=2"

        let harness = Harness()
        let recorder = RecordingLogHandler()
        var resource: Resource { harness.service.resource(absoluteURL: Self.secretURL) }

        func expectNoSecret(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(!text.contains("pa55word"), "\(text)", sourceLocation: sourceLocation)
            #expect(!text.contains("s3cret"), "\(text)", sourceLocation: sourceLocation)
        }

        @Test("no log line of any category shows the URL's password or token")
        func logLines() async {
            let observer = RecordingObserver()
            resource.addObserver(observer)
            await ReposeLog.withEnabled(.all) {
                await ReposeLog.withHandler(recorder.handler) {
                    harness.service.configure(resource) { $0.expirationTime = 60 }  // described by its URL
                    if let load = resource.loadIfNeeded() { await harness.answer(load, text: "hi") }
                    resource.loadIfNeeded()
                    await harness.answer(resource.load(), status: 500)
                    let failing = resource.load()
                    await harness.network.fail(with: Self.transportError())
                    await _ = failing.responseInfo
                }
            }
            #expect(recorder.lines.count > 8)
            #expect(recorder.lines.contains("network: GET \(Self.loggableURL)"))
            #expect(recorder.lines.contains { $0.hasPrefix("configuration: added \"\(Self.loggableURL)\"") })
            #expect(recorder.lines.contains { $0.hasPrefix("pipeline: GET \(Self.loggableURL): ") })
            for line in recorder.lines { expectNoSecret(line) }
        }

        @Test("a resource's description and debug description hide the secrets")
        func resourceDescription() {
            #expect("\(resource)" == "Resource(\(Self.loggableURL))")
            expectNoSecret(String(reflecting: resource))
        }

        @Test("a request's description hides the secrets")
        func requestDescription() {
            let request = resource.load()
            #expect(request.requestDescription == "GET \(Self.loggableURL)")
            expectNoSecret("\(request)")
            request.cancel()
        }

        @Test("an error's description, debug description and message hide a URL its cause carried")
        func errorDescription() async throws {
            let failing = resource.load()
            await harness.network.fail(with: Self.transportError())
            let error = try #require(await failing.responseInfo.response.error)
            #expect("\(error)".contains("<redacted>"))
            expectNoSecret("\(error)")
            expectNoSecret(String(reflecting: error))
            expectNoSecret(error.userMessage)
            // A URLError gets Repose's own message, which quotes no URL at all.
            #expect(error.userMessage == "Could not connect to the server.")
        }

        @Test("an error whose cause holds request-body text describes the cause without the text")
        func bodyTextCauses() {
            let causes: [any Error] = [
                RequestError.Cause.UnencodableText(encoding: .ascii, text: "password=s3cret"),
                RequestError.Cause.NotURLEncodable(offendingString: "s3cret"),
            ]
            for cause in causes {
                let error = RequestError(userMessage: "The text could not be encoded for sending.", cause: cause)
                expectNoSecret("\(error)")
                expectNoSecret(String(reflecting: error))
            }
            #expect(
                "\(causes[0])" == "UnencodableText(encoding: \(String.Encoding.ascii), 15 characters)")
        }

        @Test("an entity's description shows its headers with sensitive values hidden")
        func entityDescription() {
            let entity = Entity<Any>(
                content: "hi", contentType: "text/plain",
                headers: ["Set-Cookie": "id=s3cret", "X-Auth-Token": "s3cret"])
            let text = "\(entity)"
            #expect(text.contains("set-cookie: <redacted>"))
            #expect(text.contains("x-auth-token: <redacted>"))
            expectNoSecret(text)
            expectNoSecret(String(reflecting: entity))
        }

        @Test("ReposeTesting's texts for a recorded request and a stub hide the secrets")
        func testingTexts() {
            let recorded = RecordedRequest(url: Self.secretURL, headers: ["Authorization": "Bearer s3cret"])
            #expect("\(recorded)" == "GET \(Self.loggableURL)")
            let matcher = StubMatcher(.get, Self.secretURL).header("Authorization", "Bearer s3cret")
            expectNoSecret("\(matcher)")
        }

        /// A transport error that, like Foundation's, carries the URL in its user info and its message.
        static func transportError() -> NSError {
            NSError(
                domain: NSURLErrorDomain, code: NSURLErrorCannotConnectToHost,
                userInfo: [
                    NSLocalizedDescriptionKey: "Could not reach \(secretURL).",
                    "NSErrorFailingURLStringKey": secretURL,
                ])
        }
    }
}
