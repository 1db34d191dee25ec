import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

extension LoggingTests {
    /// The categories whose lines come from the pipeline, the caches, the configuration and the response details:
    /// each one, turned on alone, logs what Docs/Logging.md says it logs.
    @MainActor
    @Suite("Pipeline, cache, configuration and response lines", .checksLifetimes)
    struct CategoryLinesTests {
        let harness = Harness()
        let recorder = RecordingLogHandler()
        let url = "https://zingle.frotz/v1/a/b"
        var resource: Resource { harness.service.resource("/a/b") }

        func capture(_ categories: ReposeLog.Category, _ operation: () async -> Void) async {
            await ReposeLog.withEnabled(categories) {
                await ReposeLog.withHandler(recorder.handler, operation: operation)
            }
        }

        @Test("networkDetails shows each response's status, size and redacted headers, and each transport error")
        func responseDetails() async {
            await capture(.networkDetails) {
                await harness.answer(resource.load(), text: "hi", headers: ["Set-Cookie": "id=s3cret"])
                let failing = resource.load()
                await harness.network.fail(with: URLError(.timedOut))
                await _ = failing.responseInfo
            }
            #expect(
                recorder.lines.contains(
                    #"networkDetails: GET \#(url) ← 200, 2 bytes [Content-Type: "text/plain", Set-Cookie: <redacted>]"#)
            )
            #expect(recorder.lines.contains { $0.hasPrefix("networkDetails: GET \(url) ← transport error: ") })
            #expect(!recorder.lines.contains { $0.contains("s3cret") })
        }

        @Test("pipeline shows what each stage with transformers made of the response")
        func pipelineLines() async {
            await capture(.pipeline) {
                await harness.answer(resource.load(), contentType: "application/json", text: #"{"a": 1}"#)
                await harness.answer(resource.load(), status: 404, text: "gone")
            }
            let lines = recorder.lines
            // JSON bytes pass the text decoder untouched, and the JSON parser turns them into a dictionary.
            #expect(lines.contains("pipeline: GET \(url): decoding → application/json (Data)"))
            #expect(lines.contains { $0.hasPrefix("pipeline: GET \(url): parsing → application/json (") })
            #expect(lines.contains { $0.hasPrefix("pipeline: GET \(url): decoding → error 404 ") })
            #expect(lines.allSatisfy { $0.hasPrefix("pipeline: GET \(url): ") })
        }

        @Test("cache shows the read when a resource is first used, its result, and each write")
        func cacheLines() async {
            let cache = RecordingCache()
            cache.seed("/v1/a/b", content: Data("old".utf8), timestamp: 900)
            harness.service.configure { $0.pipeline[.rawData].cacheUsing(cache) }
            let resource = resource
            await capture(.cache) {
                await resource.cacheCheckCompleted()
                await harness.answer(resource.load(), text: "new")
                await harness.service.resource("/a/c").cacheCheckCompleted()
            }
            _ = cache.entry("/v1/a/b")
            #expect(
                recorder.lines == [
                    "cache: \(url): reading the caches of rawData",
                    "cache: \(url): hit, text/plain (String)",
                    "cache: GET \(url): rawData output written to the cache",
                    "cache: https://zingle.frotz/v1/a/c: reading the caches of rawData",
                    "cache: https://zingle.frotz/v1/a/c: no usable entry",
                ])
        }

        @Test("configuration shows each change and which entries a resource's configuration is built from")
        func configurationLines() async {
            await capture(.configuration) {
                harness.service.configure("/a/*", description: "short-lived") { $0.expirationTime = 5 }
                _ = resource.configuration(for: .get)
                _ = harness.service.resource("/a/c").configuration(for: .get)
                harness.service.invalidateConfiguration()
            }
            let lines = recorder.lines
            #expect(lines.first == #"configuration: added "short-lived"; resources recompute their configuration"#)
            #expect(
                lines.contains {
                    $0.hasPrefix("configuration: GET \(url): built from ") && $0.hasSuffix(#""short-lived""#)
                })
            #expect(lines.contains { $0.hasPrefix("configuration: GET https://zingle.frotz/v1/a/c: shared, from ") })
            #expect(lines.last == "configuration: invalidated; resources recompute their configuration")
        }

        @Test("pipeline, cache, configuration and networkDetails stay silent while off, whatever else is on")
        func silentWhenOff() async {
            let cache = RecordingCache()
            harness.service.configure { $0.pipeline[.rawData].cacheUsing(cache) }
            await capture(.all.subtracting([.pipeline, .cache, .configuration, .networkDetails])) {
                await resource.cacheCheckCompleted()
                await harness.answer(resource.load(), text: "new")
                harness.service.invalidateConfiguration()
            }
            #expect(!recorder.lines.isEmpty)
            #expect(
                recorder.lines.allSatisfy {
                    !$0.hasPrefix("pipeline") && !$0.hasPrefix("cache") && !$0.hasPrefix("configuration")
                        && !$0.hasPrefix("networkDetails")
                })
        }
    }
}
