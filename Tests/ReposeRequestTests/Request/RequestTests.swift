import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@MainActor
@Suite("Requests and their hooks", .checksLifetimes)
struct RequestTests {
    let harness = Harness()
    var resource: Resource { harness.service.resource("/a/b") }

    @Test("E11 cancel completes the request at once as a cancellation")
    func cancelCompletesAtOnce() throws {
        let request = resource.request(.get)
        var failure: RequestError?
        request.onFailure { failure = $0 }
        request.cancel()
        #expect(request.state == .completed)
        let response = try #require(request.completedResponse?.response)
        #expect(response.isCancellation)
        #expect(response.error?.cause is RequestError.Cause.RequestCancelled)
        #expect(harness.network.cancelledCount == 1)
        #expect(failure?.isCancellation == true)  // hooks waiting at completion run right then
    }

    @Test("E11 a cancellation is stamped with the service's clock, as every other outcome is")
    func cancellationUsesServiceClock() throws {
        harness.clock.now = 1025
        let load = resource.load()
        let chained = load.chained(whenCompleted: { _ in .useThisResponse })
        let repeated = load.repeated().start()
        for request in [load, chained, repeated] {
            request.cancel()
            let error = try #require(request.completedResponse?.response.error)
            #expect(error.isCancellation)
            #expect(error.timestamp == 1025)
        }
    }

    @Test("a request describes itself by method, URL (secrets hidden) and where it is in its life")
    func describesItself() async {
        let load = harness.service.resource("/a/b").withParam("token", "s3cret").load()
        #expect("\(load)".hasPrefix("Request(GET https://zingle.frotz/v1/a/b?token="))
        #expect(!"\(load)".contains("s3cret"))
        #expect("\(load)".hasSuffix(", in progress)"))
        await harness.answer(load, text: "done")
        #expect("\(load)".hasSuffix(", succeeded)"))
        let unstarted = load.repeated()
        #expect("\(unstarted)".hasSuffix(", not started)"))
        unstarted.start().cancel()
        #expect("\(unstarted)".hasSuffix(", cancelled)"))
        let failed = resource.request(.post)
        await harness.answer(failed, status: 500)
        #expect("\(failed)" == "Request(POST https://zingle.frotz/v1/a/b, failed)")
    }

    @Test("E11 a response arriving after cancel is ignored")
    func lateResponseIgnored() async {
        let request = resource.load()
        request.cancel()
        await harness.network.respond(status: 200, body: Data("late".utf8))
        #expect(await request.response.isCancellation)
        #expect(resource.latestData == nil)
    }

    @Test("E12 cancel after success has no effect")
    func cancelAfterSuccess() async {
        let request = resource.request(.get)
        await harness.answer(request, text: "done")
        request.cancel()
        #expect(request.completedResponse?.response.entity != nil)
        #expect(harness.network.cancelledCount == 0)
    }

    @Test("E12 cancel on a request that failed before starting has no effect")
    func cancelAfterPreflightFailure() {
        let request = Resource.failedRequest(returning: RequestError(userMessage: "bad input", cause: nil))
        request.cancel()
        #expect(request.completedResponse?.response.error?.userMessage == "bad input")
    }

    @Test("E13 repeated() is unstarted; start() sends again; the original keeps its result and hooks")
    func repeated() async {
        let original = resource.request(.get)
        var originalHookCalls = 0
        original.onSuccess { _ in originalHookCalls += 1 }
        await harness.answer(original, text: "first")

        let again = original.repeated()
        #expect(again.state == .notStarted)
        #expect(harness.network.sent.count == 1)
        again.start()
        #expect(harness.network.sent.count == 2)
        await harness.answer(again, text: "second")
        #expect(original.completedResponse?.response.entity?.content as? String == "first")
        #expect(again.completedResponse?.response.entity?.content as? String == "second")
        #expect(originalHookCalls == 1)
    }

    @Test("hooks attached after completion still fire, once, and not synchronously")
    func lateHooksAreAsynchronous() async {
        let request = Resource.hardWiredRequest(returning: .success(Entity(content: "x", contentType: "text/plain")))
        var calls: [String] = []
        request.onSuccess { _ in calls.append("success") }
            .onCompletion { _ in calls.append("completion") }
            .onFailure { _ in calls.append("failure") }
        #expect(calls.isEmpty)
        _ = await request.responseInfo
        await Task.yield()
        #expect(calls == ["success", "completion"])
    }

    @Test(
        "P1 progress is 1 after success, pre-flight failure, server error, transport error and cancel",
        arguments: ["success", "preflight", "server", "transport", "cancel"])
    func progressEndsAtOne(outcome: String) async {
        let request: Request
        switch outcome {
        case "preflight":
            request = harness.service.resource(absoluteURL: "not a url").load()
        case "cancel":
            request = resource.load()
            request.cancel()
        default:
            request = resource.load()
            switch outcome {
            case "success": await harness.network.respond(status: 200)
            case "server": await harness.network.respond(status: 500)
            default: await harness.network.fail(with: URLError(.networkConnectionLost))
            }
        }
        _ = await request.responseInfo
        #expect(request.progress == 1)
    }

    @Test("progress grows monotonically and reaches observers of a load before completion")
    func progressReports() async {
        harness.service.configure { $0.progressReportingInterval = 0 }
        let observer = RecordingObserver()
        resource.addObserver(observer)
        let request = resource.load()
        var seen: [Double] = []
        request.onProgress { seen.append($0) }
        await harness.network.reportProgress(TransferProgress(bytesReceived: 50, bytesExpectedToReceive: 100))
        await harness.network.reportProgress(TransferProgress(bytesReceived: 25, bytesExpectedToReceive: 100))
        await harness.network.reportProgress(TransferProgress(bytesReceived: 100, bytesExpectedToReceive: 100))
        await harness.answer(request)
        #expect(seen.first == 0.5)
        #expect(seen.last == 1)
        #expect(seen == seen.sorted())
    }

    @Test("P1 a sample saying the whole body arrived is not reported: the completion right after makes progress 1")
    func finishedDownloadNotReported() async {
        harness.service.configure { $0.progressReportingInterval = 0 }
        let request = resource.load()
        var seen: [Double] = []
        request.onProgress { seen.append($0) }
        await harness.network.reportProgress(TransferProgress(bytesReceived: 50, bytesExpectedToReceive: 100))
        await harness.network.reportProgress(TransferProgress(bytesReceived: 100, bytesExpectedToReceive: 100))
        await harness.answer(request)
        #expect(seen == [0.5, 1])
    }

    @Test("P1 a sample saying the whole body arrived does not ride along with the report of a sample before it")
    func completeSampleDoesNotRideAlong() async {
        harness.service.configure { $0.progressReportingInterval = 0 }
        let request = resource.load()
        var seen: [Double] = []
        request.onProgress { seen.append($0) }
        let network = harness.network
        let reported = DispatchSemaphore(value: 0)
        Task.detached {
            await network.reportProgress(TransferProgress(bytesReceived: 50, bytesExpectedToReceive: 100))
            await network.reportProgress(TransferProgress(bytesReceived: 100, bytesExpectedToReceive: 100))
            reported.signal()
        }
        // The main queue is held until both samples are in, so the first one's report, still on its way, finds the
        // second one there: as on a busy machine.
        Self.wait(for: reported)
        await harness.answer(request)
        #expect(seen == [0.5, 1])
        #expect(request.transfer.bytesReceived == 100)
    }

    /// Blocks the caller until `semaphore` is signalled, a minute at most.
    private static func wait(for semaphore: DispatchSemaphore) {
        _ = semaphore.wait(timeout: .now() + .seconds(Int(Patience.wait.components.seconds)))
    }

    @Test(
        "P1 B9 U1 a provider calling back from a main-queue block is heard as any other: on a later turn, progress in order, then 1, then the completion",
        .hangLimit)
    func deliveredOnALaterTurnFromMainQueue() async {
        let network = MainQueueNetwork()
        let service = Service(  // virtual time stands still: the wait adds nothing to the bytes' half
            baseURL: "https://zingle.frotz/v1",
            options: .init(networking: network, scheduler: TestScheduler(now: .seconds(1000))))
        LifetimeCheck.track(service)
        service.configure { $0.progressReportingInterval = 0 }
        let request = service.resource("/a").load()
        var seen: [String] = []
        request.onProgress { seen.append("progress \($0)") }
        request.onCompletion { _ in seen.append("completed") }
        let completedInBlock = await network.answer { request.state == .completed }
        #expect(!completedInBlock)  // no delivery in place: the one route back is a block of its own
        _ = await request.responseInfo
        #expect(seen == ["progress 0.5", "progress 1.0", "completed"])
    }
}

/// Answers each request from a plain block on the main queue, progress first, and says whether the request was
/// complete when the block ended.
final class MainQueueNetwork: NetworkingProvider, @unchecked Sendable {
    // Safe: `sinks` is only touched on the main queue.
    private var sinks: [any ResponseSink] = []

    private struct Task: NetworkingTask {
        func cancel() {}
    }

    func startTransfer(_ request: URLRequest, into sink: any ResponseSink) -> any NetworkingTask {
        MainActor.assumeIsolated { sinks.append(sink) }
        return Task()
    }

    /// Answers the oldest request in a main-queue block, and returns what `check` said at the end of that block.
    @MainActor
    func answer(checking check: @escaping @MainActor @Sendable () -> Bool) async -> Bool {
        let sink = sinks.removeFirst()
        return await withCheckedContinuation { done in
            DispatchQueue.main.async {
                sink.progress(TransferProgress(bytesReceived: 50, bytesExpectedToReceive: 100))
                sink.deliver(.success(NetworkResponse(statusCode: 200)))
                done.resume(returning: MainActor.assumeIsolated(check))
            }
        }
    }
}

@MainActor
@Suite("Request lifetimes", .checksLifetimes)
struct RequestLifetimeTests {
    let harness = Harness()

    final class Captured {}

    @Test("a request's hooks, and what they capture, are released once it completes")
    func hooksReleasedOnCompletion() async {
        weak var weakCaptured: Captured?
        let request = harness.service.resource("/a").load()
        do {
            let captured = Captured()
            weakCaptured = captured
            request.onSuccess { _ in _ = captured }
        }
        #expect(weakCaptured != nil)
        await harness.answer(request)
        #expect(weakCaptured == nil)
    }
}
