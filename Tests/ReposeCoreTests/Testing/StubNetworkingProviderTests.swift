import Foundation
import Repose
import ReposeTesting
import Testing

@testable import ReposeTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("StubNetworkingProvider")
struct StubNetworkingProviderTests {
    let network = StubNetworkingProvider()
    let base = "https://api.example.com"

    @Test("a stub answers its method and exact URL with its JSON, text or bytes")
    func answersStubs() async throws {
        network.stub(.get, "\(base)/users/1", json: ["name": "Ada", "id": 1])
        network.stub(.post, "\(base)/users", status: 201, text: "created")
        network.stub(.get, "\(base)/logo", headers: ["Content-Type": "image/png"], data: Data([0x89, 0x50]))
        network.stub(.delete, "\(base)/users/1", status: 204)

        let user = try #require(await send("GET", "/users/1").response())
        #expect(user.statusCode == 200)
        #expect(user.headers["Content-Type"] == "application/json")
        #expect(String(decoding: user.body, as: UTF8.self) == #"{"id":1,"name":"Ada"}"#)

        let created = try #require(await send("POST", "/users", body: "Ada").response())
        #expect(created.statusCode == 201)
        #expect(created.headers["Content-Type"] == "text/plain; charset=utf-8")
        #expect(created.body == Data("created".utf8))

        let logo = try #require(await send("GET", "/logo").response())
        #expect(logo.headers == ["Content-Type": "image/png"])
        #expect(logo.body == Data([0x89, 0x50]))

        let deleted = try #require(await send("DELETE", "/users/1").response())
        #expect(deleted.statusCode == 204)
        #expect(deleted.body.isEmpty)
    }

    @Test("A13 a stubbed transport error completes the request with that very error")
    func transportError() async throws {
        network.stub(.get, "\(base)/down", error: URLError(.notConnectedToInternet))
        let error = try #require(await send("GET", "/down").error())
        #expect((error as? URLError)?.code == .notConnectedToInternet)
    }

    @Test("[intended failure] a stub for one method does not answer another, nor a URL that differs only in its query")
    func methodAndURLMustMatch() async throws {
        network.stub(.get, "\(base)/users?page=1", json: [["id": 1]])
        network.stub(.post, "\(base)/users?page=1", status: 201, text: "created")
        #expect(try #require(await send("GET", "/users?page=1").response()).statusCode == 200)
        #expect(try #require(await send("POST", "/users?page=1").response()).statusCode == 201)
        let put = RecordingTransfer()
        withKnownIssue("another method at the stubbed URL") {
            _ = network.startTransfer(request("PUT", "/users?page=1"), into: put)
        } matching: { issue in
            issue.mentions("no stub matches PUT \(base)/users?page=1.")
        }
        let otherQuery = RecordingTransfer()
        withKnownIssue("the stubbed method at a URL whose query differs") {
            _ = network.startTransfer(request("GET", "/users?page=2"), into: otherQuery)
        } matching: { issue in
            issue.mentions("no stub matches GET \(base)/users?page=2.")
        }
        #expect((try #require(await put.error()) as? StubError)?.reason == .unmatchedRequest)
        #expect((try #require(await otherQuery.error()) as? StubError)?.reason == .unmatchedRequest)
    }

    @Test("the stub added last wins, and a removed stub no longer answers")
    func latestStubWins() async throws {
        network.stub(StubMatcher(nil, where: { _ in true }), .status(404))
        let specific = network.stub(.get, "\(base)/users/1", json: ["name": "Ada"])
        #expect(try #require(await send("GET", "/users/1").response()).statusCode == 200)
        #expect(try #require(await send("GET", "/other").response()).statusCode == 404)
        specific.remove()
        #expect(try #require(await send("GET", "/users/1").response()).statusCode == 404)
    }

    @Test("a sequence answers successive requests in turn and then repeats its last response")
    func sequence() async throws {
        network.stub(
            .get, "\(base)/flaky",
            responses: [.error(URLError(.timedOut)), .status(503), .json(["ok": true])])
        let first = try #require(await send("GET", "/flaky").error())
        #expect((first as? URLError)?.code == .timedOut)
        #expect(try #require(await send("GET", "/flaky").response()).statusCode == 503)
        #expect(try #require(await send("GET", "/flaky").response()).body == Data(#"{"ok":true}"#.utf8))
        #expect(try #require(await send("GET", "/flaky").response()).body == Data(#"{"ok":true}"#.utf8))
    }

    @Test("the log keeps each request's method, URL, headers and body, in order")
    func requestLog() async throws {
        network.stub(StubMatcher(nil, where: { _ in true }), .status(200))
        var post = request("POST", "/users", body: #"{"name":"Ada"}"#)
        post.setValue("application/json", forHTTPHeaderField: "Content-Type")
        _ = await RecordingTransfer.send(post, to: network).response()
        _ = await send("GET", "/users/1").response()

        let log = network.requests
        #expect(log.map(\.url) == ["\(base)/users", "\(base)/users/1"])
        #expect(log.map(\.method) == [.post, .get])
        #expect(log.map(\.httpMethod) == ["POST", "GET"])
        #expect(log[0].header("content-type") == "application/json")
        #expect(log[0].text == #"{"name":"Ada"}"#)
        #expect(log[0].jsonDict["name"] as? String == "Ada")
        #expect(log[1].body == nil)
        #expect(log[1].jsonDict.isEmpty)
        #expect(log.allSatisfy { !$0.wasCancelled })
    }

    @Test(
        "[intended failure] an unmatched request fails the test with a message naming it and the stubs, and completes with an error"
    )
    func unmatchedRequest() async throws {
        network.stub(.get, "\(base)/users/1", json: ["name": "Ada"])
        let recording = RecordingTransfer()
        withKnownIssue {
            _ = network.startTransfer(request("GET", "/users/2"), into: recording)
        } matching: { issue in
            issue.mentions("no stub matches GET \(base)/users/2.", "GET \(base)/users/1")
        }
        let error = try #require(await recording.error())
        let stubError = try #require(error as? StubError)
        #expect(stubError.reason == .unmatchedRequest)
        #expect(stubError.request?.url == "\(base)/users/2")
        #expect(stubError.localizedDescription.contains("no stub matches"))
        #expect(network.requests.map(\.url) == ["\(base)/users/2"])
    }

    @Test("U7 responses arrive after startTransfer returns: the upload, the head, the length, the body, the end")
    func asynchronousDelivery() async throws {
        network.stub(.post, "\(base)/upload", text: "thanks")
        let lock = NSRecursiveLock()
        let order = Order()
        // Delivery needs the lock this thread holds until after startTransfer returns; a synchronous delivery would
        // take the recursive lock on this thread and log itself first.
        lock.withLock {
            _ = network.startTransfer(request("POST", "/upload", body: "12345"), into: OrderSink(order, lock: lock))
            order.append("returned")
        }
        await network.idle(timeout: .seconds(60))
        #expect(order.entries == ["returned", "sent 5", "head 200", "length 6", "body 6", "end"])
    }

    @Test("U7 responses are delivered off the main queue, in the order they were released")
    func deliveredOffMainQueueInReleaseOrder() async {
        let slow = network.stub(.get, "\(base)/slow", text: "slow").held()
        network.stub(.get, "\(base)/fast", text: "fast")
        let order = Order()
        for path in ["/slow", "/fast"] {
            _ = network.startTransfer(request("GET", path), into: OrderSink(order, label: path))
        }
        await slow.requested(timeout: .seconds(60))
        await network.idle(timeout: .seconds(60))  // the held response does not count
        slow.release()
        await network.idle(timeout: .seconds(60))
        #expect(
            order.entries == [
                "/fast head 200 main: false", "/fast length 4 main: false", "/fast body 4 main: false",
                "/fast end main: false", "/slow head 200 main: false", "/slow length 4 main: false",
                "/slow body 4 main: false", "/slow end main: false",
            ])
    }

    @Test("idle returns at once when nothing is on its way")
    func idleWhenNothingPending() async {
        #expect(await network.idle(timeout: .seconds(60)))
    }

    // MARK: Helpers

    func request(_ method: String, _ path: String, body: String? = nil) -> URLRequest {
        var request = URLRequest(url: URL(string: base + path) ?? URL(fileURLWithPath: "/"))
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        return request
    }

    func send(_ method: String, _ path: String, body: String? = nil) -> RecordingTransfer {
        RecordingTransfer.send(request(method, path, body: body), to: network)
    }
}

/// Writes what a provider hands it into an ``Order``: with a label, each entry also says whether it came on the main
/// queue.
private final class OrderSink: ResponseSink, @unchecked Sendable {
    // Safe: the constants never change; `order` is thread-safe.
    private let order: Order
    private let label: String?
    private let lock: NSRecursiveLock?

    init(_ order: Order, label: String? = nil, lock: NSRecursiveLock? = nil) {
        self.order = order
        self.label = label
        self.lock = lock
    }

    private func log(_ entry: String) {
        let line = label.map { "\($0) \(entry) main: \(MainQueueProbe.isCurrent)" } ?? entry
        if let lock { lock.withLock { order.append(line) } } else { order.append(line) }
    }

    func receive(_ response: NetworkResponse) -> Bool {
        log("head \(response.statusCode)")
        return true
    }

    func receive(_ bytes: Data) -> Bool {
        log("body \(bytes.count)")
        return true
    }

    func progress(_ sample: TransferProgress) {
        log(sample.bytesSent > 0 ? "sent \(sample.bytesSent)" : "length \(sample.bytesExpectedToReceive ?? -1)")
    }

    func finish(_ error: (any Error)?, connection: ConnectionMetrics?, isFromCache: Bool) {
        log(error == nil ? "end" : "failed")
    }
}
