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

    @Test("P1 a progress hook reads the bytes behind each fraction; counts only grow, an expectation never below them")
    func transferBesideTheFraction() throws {
        let work = ManualRequestDelegate()
        let request = resource.prepareRequest(using: work).start()
        var seen: [String] = []
        request.onProgress { [weak request] fraction in
            guard let bytes = request?.transfer else { return }
            seen.append("\(fraction): \(bytes.bytesReceived)/\(bytes.bytesExpectedToReceive ?? -1)")
        }
        let handler = try #require(work.handler)
        handler.broadcastTransfer(TransferProgress(bytesReceived: 250, bytesExpectedToReceive: 1000))
        handler.broadcastProgress(0.25)
        handler.broadcastTransfer(TransferProgress(bytesReceived: 100, bytesExpectedToReceive: 1000))  // goes back
        handler.broadcastTransfer(TransferProgress(bytesSent: 10, bytesExpectedToSend: 5))  // less than was sent
        handler.broadcastProgress(0.5)
        #expect(seen == ["0.25: 250/1000", "0.5: 250/1000"])
        #expect(request.transfer.bytesSent == 10)
        #expect(request.transfer.bytesExpectedToSend == 10)
    }

    enum Ending: String, CaseIterable { case finished, failed, cancelled }

    @Test(
        "P1 at progress 1 a request already says how it ended: finished, failed and cancelled are told apart",
        arguments: Ending.allCases)
    func progressOneKnowsTheOutcome(ending: Ending) throws {
        let work = ManualRequestDelegate()
        let request = resource.prepareRequest(using: work).start()
        var told: [String] = []
        request.onProgress { [weak request] fraction in
            guard fraction == 1, let outcome = request?.completedResponse?.response else { return }
            switch outcome {
            case .success: told.append("finished")
            case .failure(let error) where error.isCancellation: told.append("cancelled")
            case .failure: told.append("failed")
            }
        }
        let handler = try #require(work.handler)
        switch ending {
        case .finished:
            handler.broadcastResponse(
                ResponseInfo(response: .success(Entity(content: "ok", contentType: "text/plain"))))
        case .failed:
            handler.broadcastResponse(ResponseInfo(response: .failure(RequestError(userMessage: "no", cause: nil))))
        case .cancelled: request.cancel()
        }
        #expect(told == [ending.rawValue])
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
