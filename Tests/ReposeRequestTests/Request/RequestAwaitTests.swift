import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// Awaiting a request, as async code does: the awaiting task resumes once observers and hooks have seen the whole
/// result, however many tasks wait, and cancelling the task cancels the request.
@MainActor
@Suite("Awaiting a request", .checksLifetimes)
struct RequestAwaitTests {
    let harness = Harness()
    var resource: Resource { harness.service.resource("/a/b") }

    /// Starts a task awaiting `request`, and lets it start waiting. The task returns what it got, as text, and
    /// writes it to `log`, if given, the moment it resumes.
    private func awaiting(_ request: Request, log: Order? = nil) async -> Task<String, Never> {
        let task = Task {
            let info = await request.responseInfo
            let got: String
            switch info.response {
            case .success(let entity): got = "\(info.isNew ? "new" : "same") \(entity.text)"
            case .failure(let error): got = error.isCancellation ? "cancelled" : "failed"
            }
            log?.append("task resumed: \(got)")
            return got
        }
        await Task.yield()
        return task
    }

    @Test(
        "B9 newData(network) finds the load over, the data in place and no error; hooks follow, then the awaiting task",
        .hangLimit)
    func awaitedLoadCompletesEverything() async {
        let log = Order()
        let observer = RecordingObserver()
        observer.onChange = { resource, event in
            let error = resource.latestError == nil ? "no error" : "error"
            log.append("observer \(event): loading \(resource.isLoading), text \"\(resource.text)\", \(error)")
        }
        resource.addObserver(observer)
        let request = resource.load()
        request.onNewData { entity in log.append("hook newData \(entity.text)") }
        let task = await awaiting(request, log: log)
        await harness.network.respond(status: 200, contentType: "text/plain", text: "hello")
        #expect(await task.value == "new hello")
        #expect(
            log.entries == [
                "observer observerAdded: loading false, text \"\", no error",
                "observer requested: loading true, text \"\", no error",
                "observer newData(network): loading false, text \"hello\", no error",
                "hook newData hello",
                "task resumed: new hello",
            ])
        #expect(resource.text == "hello")
        #expect(!resource.isLoading)
    }

    @Test("P1 progress reaches hooks while a task awaits, then the response completes it", .hangLimit)
    func progressWhileAwaiting() async {
        harness.service.configure { $0.progressReportingInterval = 0 }
        let request = resource.load()
        var seen: [Double] = []
        request.onProgress { seen.append($0) }
        let task = await awaiting(request)
        await harness.network.reportProgress(TransferProgress(bytesReceived: 50, bytesExpectedToReceive: 100))
        #expect(seen == [0.5])  // delivered on the main actor before the report's await resumes here
        #expect(request.state == .inProgress)
        await harness.network.respond(status: 200)
        #expect(await task.value == "new ")
        #expect(seen == [0.5, 1])
    }

    @Test("every task awaiting one request gets the same response", .hangLimit)
    func severalAwaitingTasks() async {
        let request = resource.load()
        let first = await awaiting(request)
        let second = await awaiting(request)
        await harness.network.respond(status: 200, contentType: "text/plain", text: "shared")
        #expect(await first.value == "new shared")
        #expect(await second.value == "new shared")
    }

    @Test(
        "E11 cancelling the awaiting task cancels the request, and the task returns the cancellation",
        .hangLimit)
    func cancellingTheAwaitingTask() async {
        let request = resource.load()
        let task = await awaiting(request)
        task.cancel()
        #expect(await task.value == "cancelled")
        #expect(harness.network.cancelledCount == 1)
        await harness.network.respond(status: 200, contentType: "text/plain", text: "late")  // ignored
        #expect(resource.latestData == nil)
    }

    @Test("E11 a request cancelled while a task awaits it ends the wait at once", .hangLimit)
    func cancelledWhileAwaited() async {
        let request = resource.load()
        let task = await awaiting(request)
        request.cancel()
        #expect(await task.value == "cancelled")
    }
}
