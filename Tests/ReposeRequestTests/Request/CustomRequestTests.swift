import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@MainActor
@Suite("Requests with a custom delegate", .checksLifetimes)
struct CustomRequestTests {
    let harness = Harness()
    var resource: Resource { harness.service.resource("/a/b") }

    @Test("E25 a custom request is not started automatically")
    func notStarted() {
        let work = ManualRequestDelegate()
        let request = resource.prepareRequest(using: work)
        #expect(request.state == .notStarted)
        #expect(work.startCount == 0)
        request.start()
        request.start()
        #expect(work.startCount == 1)
        #expect(request.state == .inProgress)
    }

    @Test("E25 a custom request stays incomplete until its delegate broadcasts, then delivers that response verbatim")
    func verbatim() async throws {
        harness.service.configure { $0.pipeline[.parsing].add(ReplacingTransformer("transformed")) }
        let work = ManualRequestDelegate()
        let request = resource.prepareRequest(using: work).start()
        var completions = 0
        request.onCompletion { _ in completions += 1 }
        await Task.yield()
        #expect(request.state == .inProgress)
        #expect(completions == 0)

        let raw = Data(#"{"a":1}"#.utf8)
        let entity = Entity<Any>(content: raw, contentType: "application/json", headers: ["X-Custom": "yes"])
        let handler = try #require(work.handler)
        #expect(!handler.willIgnore)
        handler.broadcastResponse(ResponseInfo(response: .success(entity), isNew: false))
        #expect(request.state == .completed)
        #expect(completions == 1)
        let delivered = try #require(request.completedResponse)
        #expect(delivered.isNew == false)
        #expect(delivered.response.entity?.content as? Data == raw)
        #expect(delivered.response.entity?.header(forKey: "x-custom") == "yes")
    }

    @Test("E25 after the first broadcast, willIgnore is true and later broadcasts are ignored")
    func laterBroadcastsIgnored() throws {
        let work = ManualRequestDelegate()
        let request = resource.prepareRequest(using: work).start()
        let handler = try #require(work.handler)
        handler.broadcastResponse(ResponseInfo(response: .failure(RequestError(userMessage: "first", cause: nil))))
        #expect(handler.willIgnore)
        handler.broadcastResponse(
            ResponseInfo(response: .success(Entity(content: "second", contentType: "text/plain"))))
        handler.broadcastProgress(0.5)
        #expect(request.completedResponse?.response.error?.userMessage == "first")
        #expect(request.progress == 1)
    }

    @Test("E25 a cancelled custom request tells its delegate and ignores the delegate's late broadcast")
    func cancelled() throws {
        let work = ManualRequestDelegate()
        let request = resource.prepareRequest(using: work).start()
        request.cancel()
        #expect(work.cancelCount == 1)
        let handler = try #require(work.handler)
        #expect(handler.willIgnore)
        handler.broadcastResponse(ResponseInfo(response: .success(Entity(content: "late", contentType: "text/plain"))))
        #expect(request.completedResponse?.response.isCancellation == true)
    }

    @Test("a custom request can update a resource through load(using:)")
    func loadUsingCustom() async throws {
        let work = ManualRequestDelegate()
        let request = resource.load(using: resource.prepareRequest(using: work).start())
        #expect(resource.isLoading)
        try #require(work.handler).broadcastResponse(
            ResponseInfo(response: .success(Entity(content: "custom", contentType: "text/plain"))))
        _ = await request.responseInfo
        await yieldUntil { !resource.isLoading }
        #expect(resource.latestData?.content as? String == "custom")
    }

    @Test("await request.response gives the broadcast response")
    func asyncResponse() async throws {
        let work = ManualRequestDelegate()
        let request = resource.prepareRequest(using: work).start()
        try #require(work.handler).broadcastResponse(
            ResponseInfo(response: .success(Entity(content: "async", contentType: "text/plain"))))
        let content: String = try await request.content()
        #expect(content == "async")
    }
}
