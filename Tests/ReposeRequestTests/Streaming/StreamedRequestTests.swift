import Foundation
import Repose
import ReposeSignals
import ReposeTesting
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// Streamed request bodies over the stub provider, scripted piece by piece (rules U2, U4, U5, U7).
@MainActor
@Suite("Streamed requests")
struct StreamedRequestTests {
    let network = StubNetworkingProvider()
    let scheduler = TestScheduler(now: .seconds(1000))
    let service: Service
    let feed: StubEventStream

    init() {
        feed = network.stubStream("https://api.example.com/feed")
        service = Service(baseURL: "https://api.example.com", options: .init(networking: network, scheduler: scheduler))
    }

    private func open() async {
        await feed.open(headers: ["Content-Type": "application/x-ndjson"])
    }

    @Test("U2 the first piece reaches the reader while the body is still coming")
    func firstPieceBeforeTheEnd() async throws {
        let streamed = service.resource("/feed").streamRequest()
        await open()
        await feed.send("first")
        var pieces = streamed.bytes.makeAsyncIterator()
        let first = try await pieces.next()
        #expect(first == Data("first".utf8))
        #expect(feed.isConnected)  // the body has not ended
        await feed.send("second")
        await feed.end()
        #expect(try await pieces.next() == Data("second".utf8))
        #expect(try await pieces.next() == nil)
        #expect(streamed.request.state == .completed)
    }

    @Test("U2 lines split across pieces are joined; CRLF breaks a line; a last line without a break counts")
    func linesAcrossPieces() async {
        let streamed = service.resource("/feed").streamRequest()
        let reading = Task { await streamed.lines.collected() }
        await open()
        for piece in ["one\ntw", "o\r\n", "\nthr", "ee"] {
            await feed.send(piece)
        }
        await feed.end()
        let (lines, error) = await reading.value
        #expect(lines == ["one", "two", "", "three"])
        #expect(error == nil)
    }

    struct Item: Decodable, Sendable, Equatable {
        let n: Int
        /// Whether it was decoded on the main thread.
        let decodedOnMain: Bool

        enum CodingKeys: String, CodingKey { case n }

        init(from decoder: any Decoder) throws {
            n = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .n)
            decodedOnMain = Thread.isMainThread
        }
    }

    @Test("U2 NDJSON values decode one per line, blank lines skipped, off the main actor")
    func ndjsonValues() async {
        let streamed = service.resource("/feed").streamRequest()
        let reading = Task { @MainActor in
            var items: [Item] = []
            for try await item in streamed.values(of: Item.self) {
                items.append(item)
            }
            return items
        }
        await open()
        await feed.send("{\"n\": 1}\n\n{\"n\"")
        await feed.send(": 2}\n  \n{\"n\": 3}")
        await feed.end()
        let items = (try? await reading.value) ?? []
        #expect(items.map(\.n) == [1, 2, 3])
        #expect(items.allSatisfy { !$0.decodedOnMain })
    }

    @Test("U5 a value that does not decode fails the reading with a parse error")
    func undecodableValue() async {
        let streamed = service.resource("/feed").streamRequest()
        let reading = Task { await streamed.values(of: Item.self).collected() }
        await open()
        await feed.send("{\"n\": 1}\n{\"n\": \"two\"}\n")
        let (items, error) = await reading.value
        #expect(items.map(\.n) == [1])
        #expect(error?.cause is RequestError.Cause.ModelDecodingFailed)
        #expect(error?.userMessage == "Cannot parse server response")
        await waitUntil { streamed.request.state == .completed }
    }

    @Test("U5 a line longer than the maximum fails the reading with an error that says so, and cancels the request")
    func overlongLine() async {
        let streamed = service.resource("/feed").streamRequest(maximumLineLength: 8)
        let reading = Task { await streamed.lines.collected() }
        await open()
        await feed.send("12345678\n1234")
        await feed.send("56789")
        let (lines, error) = await reading.value
        #expect(lines == ["12345678"])
        let cause = error?.cause as? RequestError.Cause.LineTooLong
        #expect(cause?.maximumLength == 8)
        #expect(error?.userMessage == "A line of the server's response was too long (over 8 bytes).")
        await waitUntil { streamed.request.state == .completed }
        #expect(streamed.request.completedResponse?.response.isCancellation == true)
    }

    @Test("U4 ending the iteration cancels the request")
    func breakCancels() async throws {
        let streamed = service.resource("/feed").streamRequest()
        await open()
        await feed.send("a\nb\nc\n")
        for try await line in streamed.lines {
            #expect(line == "a")
            break
        }
        await waitUntil { streamed.request.state == .completed }
        #expect(streamed.request.completedResponse?.response.isCancellation == true)
        #expect(!feed.isConnected)
    }

    @Test("U4 cancelling the reading task cancels the request")
    func taskCancellationCancels() async {
        let streamed = service.resource("/feed").streamRequest()
        let reading = Task { await streamed.lines.collected() }
        await open()
        reading.cancel()
        _ = await reading.value
        await waitUntil { streamed.request.state == .completed }
        #expect(!feed.isConnected)
    }

    @Test("U4 past the buffer, pieces wait on disk and come back in order; the network never waits for the reader")
    func spillsPastTheBuffer() async throws {
        let streamed = service.resource("/feed").streamRequest(bufferSize: 4)
        await open()
        await feed.send("aaaa")  // fills the buffer
        await feed.send("bbbb")  // to disk, without waiting for the reader
        await feed.send("cc")  // behind the bytes on disk
        #expect(streamed.stream.bufferedByteCount == 4)
        #expect(streamed.stream.spilledByteCount == 6)
        var pieces = streamed.bytes.makeAsyncIterator()
        #expect(try await pieces.next() == Data("aaaa".utf8))
        await feed.send("d")  // behind the bytes on disk still, though memory has room
        #expect(try await pieces.next() == Data("bbbbccd".utf8))
        #expect(streamed.stream.spilledByteCount == 0)
        await feed.send("e")  // memory again
        #expect(streamed.stream.bufferedByteCount == 1)
        await feed.end()
        #expect(try await pieces.next() == Data("e".utf8))
        #expect(try await pieces.next() == nil)
    }

    @Test("U5 configured headers and the authenticator apply; a 401 before the body refreshes once")
    func authenticates() async throws {
        let auth = Authenticator(credential: "old") { _ in "new" }
        service.configure {
            $0.headers["X-App"] = "demo"
            $0.authenticator = auth
        }
        let streamed = service.resource("/feed").streamRequest()
        let reading = Task { await streamed.lines.collected() }
        #expect(feed.requests.first?.header("Authorization") == "Bearer old")
        #expect(feed.requests.first?.header("X-App") == "demo")
        await feed.open(status: 401, headers: [:])
        await feed.end()
        await waitUntil { feed.requests.count == 2 }
        #expect(feed.requests.last?.header("Authorization") == "Bearer new")
        await open()
        await feed.send("granted\n")
        await feed.end()
        let (lines, error) = await reading.value
        #expect(lines == ["granted"])
        #expect(error == nil)
    }

    @Test("U5 a failure after the first byte reached the app is never retried")
    func notRetriedAfterFirstByte() async throws {
        service.configure { $0.retryPolicy = RetryPolicy(maximumAttempts: 3, baseDelay: 1) }
        let streamed = service.resource("/feed").streamRequest()
        await open()
        await feed.send("one\n")
        var lines = streamed.lines.makeAsyncIterator()
        #expect(try await lines.next() == "one")
        await feed.fail(URLError(.networkConnectionLost))
        await waitUntil { streamed.request.state == .completed }
        scheduler.advance(by: .seconds(60))
        #expect(feed.requests.count == 1)
        guard streamed.request.state == .completed else { return }
        var failure: (any Error)?
        do {
            _ = try await lines.next()
        } catch {
            failure = error
        }
        #expect(failure is RequestError)
    }

    @Test("U4 a streamed request let go of before it is read is cancelled")
    func droppedUnread() async throws {
        var streamed: StreamedRequest? = service.resource("/feed").streamRequest()
        let request = try #require(streamed?.request)
        streamed = nil
        await waitUntil { request.state == .completed }
        #expect(request.completedResponse?.response.isCancellation == true)
        #expect(!feed.isConnected)
    }

    @Test("U5 a failure before any byte reached the app is retried; the retry's body replaces the unread pieces")
    func retryDropsUnreadPieces() async {
        service.configure { $0.retryPolicy = RetryPolicy(maximumAttempts: 3, baseDelay: 1) }
        let streamed = service.resource("/feed").streamRequest()
        await open()
        await feed.send("stale\n")
        await feed.fail(URLError(.networkConnectionLost))
        let reading = Task { await streamed.lines.collected() }
        scheduler.advance(by: .seconds(10))
        await waitUntil { feed.requests.count == 2 }
        await open()
        await feed.send("fresh\n")
        await feed.end()
        let (lines, error) = await reading.value
        #expect(lines == ["fresh"])
        #expect(error == nil)
    }

    @Test("U5 the log shows the streamed request, its secrets redacted")
    func logged() async {
        let recorder = RecordingLogHandler()
        await ReposeLog.withEnabled([.network, .networkDetails]) {
            await ReposeLog.withHandler(recorder.handler) {
                let streamed = service.resource("/feed").streamRequest(headers: ["Authorization": "Bearer s3cret"])
                let reading = Task { await streamed.lines.collected() }
                await open()
                await feed.send("a\n")
                await feed.end()
                _ = await reading.value
            }
        }
        let url = "https://api.example.com/feed"
        #expect(recorder.lines.contains("network: GET \(url) (streamed)"))
        #expect(recorder.lines.contains("networkDetails: GET \(url) [Authorization: <redacted>]"))
        #expect(!recorder.lines.contains { $0.contains("s3cret") })
    }

    @Test("U5 an error status fails the reading with the request's error and its message")
    func errorStatus() async {
        let streamed = service.resource("/feed").streamRequest()
        let reading = Task { await streamed.bytes.collected() }
        await feed.open(status: 503, headers: ["Content-Type": "text/plain"])
        await feed.send("down for maintenance")
        await feed.end()
        let (pieces, error) = await reading.value
        #expect(pieces.isEmpty)
        #expect(error?.httpStatusCode == 503)
    }

    @Test("U5 a monitor measures the streamed request")
    func measured() async {
        let heard = SignalOwner()
        let monitor = service.monitorRequests(
            owner: heard, started: { heard, method, _ in heard.values.append("start \(method)") }
        ) { heard, metrics in
            heard.values.append("done \(metrics.statusCode ?? 0) \(metrics.bytesReceived)")
        }
        defer { monitor.cancel() }
        let streamed = service.resource("/feed").streamRequest()
        let reading = Task { await streamed.bytes.collected() }
        await open()
        await feed.send("12345")
        await feed.end()
        _ = await reading.value
        await waitUntil { heard.values.count == 2 }
        #expect(heard.values == ["start get", "done 200 5"])
    }

    @Test("U2 the lines as a Signal: each a success, then the signal finishes")
    func signal() async {
        let streamed = service.resource("/feed").streamRequest()
        let owner = SignalOwner()
        streamed.lines.signal.observe(owner: owner) { owner, result in
            owner.values.append((try? result.get()) ?? "failure")
        }
        await open()
        await feed.send("a\nb\n")
        await waitUntil { owner.values == ["a", "b"] }
        await feed.end()
        await waitUntil { streamed.request.state == .completed }
        #expect(streamed.request.completedResponse?.response.isCancellation == false)
    }

    @Test("U4 the signal's last subscription ending cancels the request")
    func signalSubscriptionEnds() async {
        let streamed = service.resource("/feed").streamRequest()
        let owner = SignalOwner()
        let subscription = streamed.lines.signal.observe(owner: owner) { owner, result in
            owner.values.append((try? result.get()) ?? "failure")
        }
        await open()
        await feed.send("a\n")
        await waitUntil { owner.values == ["a"] }
        subscription.cancel()
        await waitUntil { streamed.request.state == .completed }
        #expect(streamed.request.completedResponse?.response.isCancellation == true)
    }
}

@MainActor
final class SignalOwner {
    var values: [String] = []
}
