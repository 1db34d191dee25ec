import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

extension LoggingTests {
    /// The lines Repose itself logs while loading, captured with a handler scoped to each test's task.
    @MainActor
    @Suite("Repose's own log lines", .checksLifetimes)
    struct CallSiteTests {
        let harness = Harness()
        let recorder = RecordingLogHandler()
        var resource: Resource { harness.service.resource("/a/b") }

        func capture(_ categories: ReposeLog.Category, _ operation: () async -> Void) async {
            await ReposeLog.withEnabled(categories) {
                await ReposeLog.withHandler(recorder.handler, operation: operation)
            }
        }

        @Test("a load logs its request, its redacted details and its result")
        func networkLines() async {
            await capture([.network, .networkDetails]) {
                let request = resource.request(.get) {
                    $0.setValue("Bearer s3cret", forHTTPHeaderField: "Authorization")
                }
                await harness.answer(resource.load(using: request), text: "hi")
                await harness.answer(resource.load(), status: 404, text: "nope")
            }
            let url = "https://zingle.frotz/v1/a/b"
            let lines = recorder.lines
            #expect(
                lines.filter { $0.hasPrefix("network:") } == [
                    "network: GET \(url)", "network: GET \(url) → succeeded, text/plain",
                    "network: GET \(url)",
                    #"network: GET \#(url) → failed: 404 "\#(HTTPStatus.userMessage(for: 404))""#,
                ])
            #expect(lines.contains("networkDetails: GET \(url) [Authorization: <redacted>]"))
            #expect(!lines.contains { $0.contains("s3cret") })
        }

        @Test("a 304 and a transport error are logged as the request's result")
        func notModifiedAndTransportError() async {
            await harness.answer(resource.load(), text: "one", headers: ["ETag": "v1"])
            await capture(.network) {
                await harness.answer(resource.load(), status: 304)
                let failing = resource.load()
                await harness.network.fail(with: URLError(.notConnectedToInternet))
                await _ = failing.responseInfo
            }
            let results = recorder.lines.filter { $0.contains("→") }
            #expect(results.count == 2)
            #expect(results.first?.hasSuffix("→ 304 not modified") == true)
            #expect(results.last?.contains("→ failed: ") == true)
        }

        @Test("loadIfNeeded explains each decision in the staleness category")
        func stalenessLines() async {
            await capture(.staleness) {
                let first = resource.loadIfNeeded()
                resource.loadIfNeeded()
                if let first { await harness.answer(first, text: "hi") }
                harness.clock.now += 10
                resource.loadIfNeeded()
                harness.clock.now += 25
                resource.loadIfNeeded()
            }
            let prefix = "staleness: https://zingle.frotz/v1/a/b: "
            #expect(
                recorder.lines == [
                    prefix + "no data yet; loading",
                    prefix + "a load is already in flight; not loading again",
                    prefix + "data is 10.0s old, expirationTime is 30.0s; up to date; not loading",
                    prefix + "data is 35.0s old, expirationTime is 30.0s; stale; loading",
                ])
        }

        @Test("loadIfNeeded after a failure or an invalidation says why it loads")
        func stalenessAfterErrorAndInvalidation() async {
            await harness.answer(resource.load(), status: 500)
            await capture(.staleness) {
                resource.loadIfNeeded()
                await harness.answer(resource.load(), text: "ok")
                resource.invalidate()
                resource.loadIfNeeded()
            }
            let prefix = "staleness: https://zingle.frotz/v1/a/b: "
            #expect(
                recorder.lines == [
                    prefix + "error is 0.0s old, retryTime is 1.0s; up to date; not loading",
                    prefix + "invalidated; loading",
                ])
        }

        @Test("observers lines name the event and how many observers receive it")
        func observerLines() async {
            let first = RecordingObserver()
            let second = RecordingObserver()
            resource.addObserver(first).addObserver(second)
            await capture(.observers) {
                await harness.answer(resource.load(), text: "hi")
            }
            let url = "https://zingle.frotz/v1/a/b"
            #expect(
                recorder.lines == [
                    "observers: \(url): requested to 2 observer(s)",
                    "observers: \(url): newData(network) to 2 observer(s)",
                ])
        }

        @Test("stateChanges describes the resource after each completed load")
        func stateChangeLines() async {
            await capture(.stateChanges) {
                await harness.answer(resource.load(), text: "hi")
                await harness.answer(resource.load(), status: 503)
            }
            let url = "https://zingle.frotz/v1/a/b"
            let error = HTTPStatus.userMessage(for: 503)
            #expect(
                recorder.lines == [
                    "stateChanges: \(url): data text/plain (String), no error, not loading",
                    #"stateChanges: \#(url): data text/plain (String), error 503 "\#(error)", not loading"#,
                ])
        }

        @Test("nothing is logged, and no line is built, while every category is off")
        func silentByDefault() async {
            await ReposeLog.withEnabled([]) {
                await ReposeLog.withHandler(recorder.handler) {
                    await harness.answer(resource.load(), text: "hi")
                    resource.loadIfNeeded()
                }
            }
            #expect(recorder.lines.isEmpty)
        }
    }
}
