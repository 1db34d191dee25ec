import Foundation
import ReposeTesting
import Testing

@testable import Repose
@testable import ReposeTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@MainActor
@Suite("Configuration applied to requests: headers, mutators, decorators, pipeline, progress", .checksLifetimes)
struct RequestConfigurationTests {
    let harness = Harness()
    var service: Service { harness.service }
    var resource: Resource { service.resource("/a/b") }
    var sent: [RecordedRequest] { harness.network.sent }

    @Test("E3 configured headers are sent with loads and requests")
    func headers() {
        service.configure { $0.headers["Authorization"] = "Bearer abc" }
        service.configure("/a/*") { $0.headers["X-Area"] = "a" }
        resource.load()
        resource.request(.delete)
        service.resource("/z").request(.post)
        #expect(
            sent.map { $0.header("Authorization") } == ["Bearer abc", "Bearer abc", "Bearer abc"])
        #expect(sent.map { $0.header("X-Area") } == ["a", "a", nil])
    }

    @Test("E4 mutators run for every request and are re-evaluated each time, without invalidation")
    func mutatorsRunEachTime() {
        let probe = ConfigurationProbe()
        service.configure {
            $0.mutateRequests { request in
                probe.runs += 1
                request.setValue("\(probe.runs)", forHTTPHeaderField: "X-Count")
            }
        }
        resource.load()
        resource.request(.post)
        resource.request(.post).repeated().start()
        #expect(sent.map { $0.header("X-Count") } == ["1", "2", "3", "4"])
    }

    @Test("E4 mutators see and may rewrite the body set by a body helper")
    func mutatorsSeeBody() throws {
        service.configure {
            $0.mutateRequests { request in
                let body = request.httpBody.map { String(decoding: $0, as: UTF8.self) } ?? "none"
                request.httpBody = Data("<\(body)>".utf8)
            }
        }
        resource.request(.post, text: "hello")
        resource.request(.get)
        #expect(sent.map { $0.body.map { String(decoding: $0, as: UTF8.self) } } == ["<hello>", "<none>"])
    }

    @Test("E5 a mutator may change the method; mutators follow the original method, decorators the new one")
    func mutatorChangesMethod() async {
        var log: [String] = []
        service.configure(requestMethods: [.post]) {
            $0.mutateRequests { request in
                log.append("post mutator")
                request.httpMethod = "PUT"
            }
            $0.decorateRequests { _, request in
                log.append("post decorator")
                return request
            }
        }
        service.configure(requestMethods: [.put]) {
            $0.mutateRequests { _ in log.append("put mutator") }
            $0.decorateRequests { _, request in
                log.append("put decorator")
                return request
            }
        }
        let request = resource.request(.post)
        #expect(sent.map(\.httpMethod) == ["PUT"])
        #expect(log == ["post mutator", "put decorator"])
        #expect(request.requestDescription == "PUT https://zingle.frotz/v1/a/b")
    }

    @Test("E5 the pipeline is chosen by the mutated method")
    func pipelineFollowsMutatedMethod() async {
        service.configure(requestMethods: [.get]) { $0.mutateRequests { $0.httpMethod = "PATCH" } }
        service.configure(requestMethods: [.patch]) { $0.pipeline[.cleanup].add(ReplacingTransformer("patched")) }
        let request = resource.request(.get)
        let info = await harness.answer(request, contentType: "application/octet-stream", text: "raw")
        #expect(info.response.entity?.content as? String == "patched")
    }

    @Test("E6 decorators run once for every request, loads included, get the resource, and may attach hooks")
    func decorators() async {
        var decorated: [String] = []
        var completions = 0
        service.configure {
            $0.decorateRequests { resource, request in
                decorated.append(resource.url.path)
                return request.onCompletion { _ in completions += 1 }
            }
        }
        let load = resource.load()
        let post = service.resource("/c").request(.post, json: ["a": 1])
        #expect(decorated == ["/v1/a/b", "/v1/c"])
        await harness.answer(load)
        await harness.answer(post)
        #expect(completions == 2)
        #expect(decorated.count == 2)
    }

    @Test("E7 a decorator that cancels the request makes load() fail at once, with no network traffic")
    func decoratorCancels() async {
        service.configure {
            $0.decorateRequests { _, request in
                request.cancel()
                return request
            }
        }
        let observer = RecordingObserver()
        resource.addObserver(observer)
        let load = resource.load()
        #expect(load.state == .completed)
        #expect(load.completedResponse?.response.isCancellation == true)
        #expect(sent.isEmpty)
        _ = await load.responseInfo
        await Task.yield()
        #expect(observer.events == ["observerAdded", "requested", "requestCancelled"])
        #expect(!resource.isLoading)
    }

    @Test("a configured pipeline processes the responses of the resources it matches")
    func pipeline() async {
        service.configure("/a/*") { $0.pipeline[.model].add(ReplacingTransformer("model")) }
        await harness.answer(resource.load(), contentType: "application/octet-stream", text: "raw")
        let other = service.resource("/z")
        await harness.answer(other.load(), contentType: "application/octet-stream", text: "raw")
        #expect(resource.latestData?.content as? String == "model")
        #expect(other.latestData?.content as? Data == Data("raw".utf8))
    }

    @Test(
        "a configured progressReportingInterval limits how often progress is reported",
        arguments: [(0.0, [0.25, 0.5]), (1e9, [0.25])])
    func progressInterval(interval: TimeInterval, expected: [Double]) async {
        service.configure { $0.progressReportingInterval = interval }
        let request = resource.load()
        var seen: [Double] = []
        request.onProgress { seen.append($0) }
        await harness.network.reportProgress(TransferProgress(bytesReceived: 25, bytesExpectedToReceive: 100))
        await harness.network.reportProgress(TransferProgress(bytesReceived: 50, bytesExpectedToReceive: 100))
        await harness.answer(request)
        #expect(seen == expected + [1])
    }
}
