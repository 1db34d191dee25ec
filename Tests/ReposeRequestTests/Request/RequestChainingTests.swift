import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@MainActor
@Suite("Request chains", .checksLifetimes)
struct RequestChainingTests {
    let harness = Harness()
    var service: Service { harness.service }
    var resource: Resource { service.resource("/a/b") }

    private func text(_ info: ResponseInfo?) -> String? {
        guard let content = info?.response.entity?.content else { return nil }
        return (content as? String) ?? (content as? Data).map { String(decoding: $0, as: UTF8.self) }
    }

    private func substitute(_ text: String) -> ResponseInfo {
        ResponseInfo(response: .success(Entity(content: text, contentType: "text/plain")))
    }

    @Test("useThisResponse completes the chain with the wrapped request's response")
    func useThisResponse() async {
        let chain = resource.request(.get).chained { _ in .useThisResponse }
        await harness.answer(chain, contentType: "application/octet-stream", text: "original")
        #expect(text(chain.completedResponse) == "original")
    }

    @Test("useResponse substitutes a response and passTo hands over to another request")
    func useResponseAndPassTo() async {
        let substituted = resource.request(.get).chained { _ in .useResponse(substitute("instead")) }
        await harness.answer(substituted, status: 500)
        #expect(text(substituted.completedResponse) == "instead")

        let other = service.resource("/other")
        let wrapped = resource.request(.get)
        let passed = wrapped.chained { _ in .passTo(other.request(.get)) }
        await harness.answer(wrapped, status: 500)
        await harness.answer(passed, contentType: "application/octet-stream", text: "from other")
        #expect(text(passed.completedResponse) == "from other")
        #expect(harness.network.sent.last?.url == other.url.absoluteString)
    }

    @Test("E22 a chain stays in progress until an action ends it, then completes")
    func inProgressUntilEnded() async {
        let wrapped = resource.request(.get)
        var successor: Request?
        let chain = wrapped.chained { _ in
            let next = service.resource("/next").request(.get)
            successor = next
            return .passTo(next)
        }
        #expect(chain.state == .inProgress)
        await harness.answer(wrapped)
        #expect(successor != nil)
        #expect(wrapped.state == .completed)
        #expect(chain.state == .inProgress)
        await harness.answer(chain, contentType: "application/octet-stream", text: "done")
        #expect(chain.state == .completed)
        #expect(text(chain.completedResponse) == "done")
    }

    @Test("E10 a deferred original request is started only if a chain passes control to it", arguments: [true, false])
    func deferredOriginal(passes: Bool) async {
        let gate = Resource.hardWiredRequest(returning: .success(Entity(content: "gate", contentType: "text/plain")))
        // Weak: the configuration closure that captures it lives as long as the service.
        weak var deferred: Request?
        service.configure {
            $0.decorateRequests { _, request in
                deferred = request
                return gate.chained { _ in passes ? .passTo(request) : .useThisResponse }
            }
        }
        let load = resource.load()
        #expect(deferred?.state == .notStarted)
        #expect(harness.network.sent.isEmpty)
        if passes {
            await yieldUntil { !harness.network.sent.isEmpty }
            #expect(deferred?.state == .inProgress)
            await harness.answer(load, contentType: "application/octet-stream", text: "real")
            #expect(text(load.completedResponse) == "real")
        } else {
            _ = await load.responseInfo
            #expect(text(load.completedResponse) == "gate")
            #expect(deferred?.state == .notStarted)
            #expect(harness.network.sent.isEmpty)
        }
        #expect(resource.latestData != nil)
    }

    @Test("E23 cancelling a chain cancels the wrapped request, and the chain's closure never runs")
    func cancelChain() async {
        let wrapped = resource.request(.get)
        var closureRuns = 0
        let chain = wrapped.chained { _ in
            closureRuns += 1
            return .useResponse(substitute("should not happen"))
        }
        chain.cancel()
        #expect(chain.completedResponse?.response.isCancellation == true)
        #expect(wrapped.completedResponse?.response.isCancellation == true)
        #expect(harness.network.cancelledCount == 1)
        _ = await wrapped.responseInfo
        await Task.yield()
        #expect(closureRuns == 0)
    }

    @Test("E23 cancelling the wrapped request does not stop the chain: the closure sees it and may substitute")
    func cancelWrapped() async {
        let wrapped = resource.request(.get)
        var seenCancellation = false
        let chain = wrapped.chained { info in
            seenCancellation = info.response.isCancellation
            return .useResponse(substitute("recovered"))
        }
        wrapped.cancel()
        let info = await chain.responseInfo
        #expect(seenCancellation)
        #expect(text(info) == "recovered")
    }

    @Test("E23 cancelling a chain after passTo cancels a request the chain started, not one already running")
    func cancelAfterPassTo() async {
        let sharedWork = ManualRequestDelegate()
        let shared = resource.prepareRequest(using: sharedWork).start()
        let deferredWork = ManualRequestDelegate()
        let deferred = resource.prepareRequest(using: deferredWork)
        let wrappedA = resource.request(.get)
        let ownsSuccessor = wrappedA.chained { _ in .passTo(deferred) }
        let wrappedB = resource.request(.get)
        let sharesSuccessor = wrappedB.chained { _ in .passTo(shared) }
        await harness.answer(wrappedA)
        await harness.answer(wrappedB)
        #expect(deferredWork.startCount == 1)
        ownsSuccessor.cancel()
        sharesSuccessor.cancel()
        #expect(deferred.completedResponse?.response.isCancellation == true)
        #expect(deferredWork.cancelCount == 1)
        #expect(shared.state == .inProgress)
        #expect(sharedWork.cancelCount == 0)
        #expect(ownsSuccessor.completedResponse?.response.isCancellation == true)
        #expect(sharesSuccessor.completedResponse?.response.isCancellation == true)
    }

    @Test("E24 chain.repeated() repeats the wrapped request and reruns the chain from scratch")
    func repeatedChain() async {
        var innerRuns = 0
        var outerRuns = 0
        let chain = resource.request(.get).chained { info in
            innerRuns += 1
            return .useResponse(substitute("inner \(innerRuns)"))
        }
        let outer = chain.chained { _ in
            outerRuns += 1
            return .useThisResponse
        }
        await harness.answer(outer)
        #expect(text(chain.completedResponse) == "inner 1")

        let again = chain.repeated()
        #expect(again.state == .notStarted)
        #expect(harness.network.sent.count == 1)
        again.start()
        #expect(harness.network.sent.count == 2)
        await harness.answer(again)
        #expect(text(again.completedResponse) == "inner 2")
        #expect(text(chain.completedResponse) == "inner 1")
        #expect(text(outer.completedResponse) == "inner 1")
        #expect(outerRuns == 1)
    }

    @Test("chaining an unstarted request gives an unstarted chain, and starting it starts the request")
    func unstartedChain() async {
        let original = resource.request(.get)
        await harness.answer(original)
        let chain = original.repeated().chained { _ in .useThisResponse }
        #expect(chain.state == .notStarted)
        #expect(harness.network.sent.count == 1)
        chain.start()
        #expect(harness.network.sent.count == 2)
        await harness.answer(chain)
        #expect(chain.state == .completed)
    }

    @Test("a chain that nobody holds still completes and runs its hooks, then is freed")
    func unheldChain() async {
        var result: String?
        weak var weakChain: Request?
        let wrapped = resource.request(.get)
        do {
            let chain = wrapped.chained { _ in .useResponse(substitute("kept")) }
                .onSuccess { result = $0.content as? String }
            weakChain = chain
        }
        #expect(weakChain != nil)
        await harness.answer(wrapped)
        await yieldUntil { result != nil }
        #expect(result == "kept")
        #expect(weakChain == nil)
    }

    @Test("a chain reports the progress of the request it waits on, and 1 only when it completes")
    func chainProgress() async {
        service.configure { $0.progressReportingInterval = 0 }
        let chain = resource.request(.get).chained { _ in .passTo(service.resource("/next").request(.get)) }
        var seen: [Double] = []
        chain.onProgress { seen.append($0) }
        await harness.network.reportProgress(TransferProgress(bytesReceived: 50, bytesExpectedToReceive: 100))
        await harness.network.respond(status: 200)
        await yieldUntil { harness.network.pendingCount > 0 }
        #expect(seen == [0.5])
        #expect(chain.progress == 0.5)
        await harness.answer(chain)
        #expect(seen == [0.5, 1])
    }
}
