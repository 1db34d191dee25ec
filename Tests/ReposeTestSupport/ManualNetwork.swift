import Foundation
import Repose
import ReposeTesting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A network whose requests stay in flight until the test answers them, oldest first, so that in-flight states can
/// be checked without timing.
///
/// It is the shipped test kit, as an app's tests would use it: a `StubNetworkingProvider` with one route that holds
/// every request (`hold`), under the short names the library's own tests have always called. An answer is handed to
/// Repose, off the main queue as a network's, before the call returns; a cancelled request is no longer pending.
final class ManualNetwork: NetworkingProvider {
    /// The stub provider that does the work, for what the names below do not cover.
    let stub: StubNetworkingProvider
    /// The route that holds every request.
    let pending: StubRoute

    init(fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) {
        stub = StubNetworkingProvider(fileID: fileID, filePath: filePath, line: line, column: column)
        pending = stub.hold(StubMatcher(nil, label: "any request", where: { _ in true }))
    }

    func startTransfer(_ request: URLRequest, into sink: any ResponseSink) -> any NetworkingTask {
        stub.startTransfer(request, into: sink)
    }

    /// Every request sent, oldest first.
    var sent: [RecordedRequest] { stub.requests }

    /// How many requests were cancelled before they were answered.
    var cancelledCount: Int { stub.requests.count { $0.wasCancelled } }

    var pendingCount: Int { pending.heldCount }

    /// The oldest request still waiting for an answer.
    var oldestPending: RecordedRequest? { pending.heldRequests.first }

    /// Answers the oldest pending request.
    func respond(status: Int = 200, headers: [String: String] = [:], body: Data = Data()) async {
        await pending.respond(.data(body, status: status, headers: headers))
    }

    func respond(status: Int = 200, contentType: String, text: String, headers: [String: String] = [:]) async {
        var all = headers
        all["Content-Type"] = contentType
        await respond(status: status, headers: all, body: Data(text.utf8))
    }

    /// Answers the `count` oldest pending requests alike, in one delivery.
    func respond(toOldest count: Int, status: Int = 200, contentType: String = "text/plain", text: String = "") async {
        await pending.respond(.data(Data(text.utf8), status: status, contentType: contentType), toOldest: count)
    }

    /// Answers the oldest pending request with `response` as it is.
    func respond(with response: NetworkResponse) async {
        await pending.respond(StubResponse(response))
    }

    /// Answers the pending request at `index`, 0 being the oldest still pending.
    func respond(toPendingAt index: Int, status: Int = 200, headers: [String: String] = [:], body: Data = Data()) async
    {
        await pending.respond(.data(body, status: status, headers: headers), toHeldAt: index)
    }

    /// Fails the oldest pending request with a transport error.
    func fail(with error: any Error) async {
        await pending.respond(.error(error))
    }

    /// Reports progress on the oldest pending request without answering it.
    func reportProgress(_ progress: TransferProgress) async {
        await pending.reportProgress(progress)
    }

    /// Fails every request still pending with a cancellation, as a network that went away would.
    func failPending() async {
        await pending.failHeld()
    }
}
