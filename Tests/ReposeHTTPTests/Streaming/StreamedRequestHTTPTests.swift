import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// Streamed request bodies over real HTTP: `URLSessionProvider` and the loopback server (rules U2, U4, U5).
@MainActor
@Suite("Streamed requests over HTTP", .checksLifetimes)
final class StreamedRequestHTTPTests {
    let fixture: IntegrationFixture
    var service: Service { fixture.service }

    init() async throws {
        fixture = try await IntegrationFixture()
    }

    struct Item: Decodable, Sendable {
        let n: Int
    }

    /// The loopback server's `/lines` with `params`.
    private func linesRoute(_ params: [String: String]) -> Resource {
        service.resource("/lines").withParams(params)
    }

    private func release(_ name: String) async {
        _ = await fixture.completion(of: service.resource("/store-release/\(name)").request(.get))
    }

    @Test("U2 the first line reaches the reader while the server holds the rest of the body")
    func firstLineBeforeTheEnd() async throws {
        let streamed = linesRoute(["count": "3", "hold": "first"]).streamRequest()
        var lines = streamed.lines.makeAsyncIterator()
        #expect(try await lines.next() == #"{"n": 0}"#)
        #expect(streamed.request.state != .completed)  // the server holds the rest
        await release("first")
        #expect(try await lines.next() == #"{"n": 1}"#)
        #expect(try await lines.next() == #"{"n": 2}"#)
        #expect(try await lines.next() == nil)
    }

    @Test("U2 NDJSON values whose lines the server writes in two halves decode whole, in order")
    func ndjsonAcrossWrites() async {
        let streamed = linesRoute(["count": "200", "split": "1"]).streamRequest()
        let (items, error) = await streamed.values(of: Item.self).collected()
        #expect(error == nil)
        #expect(items.map(\.n) == Array(0..<200))
    }

    @Test("U5 a line longer than the maximum fails the reading with an error that says so")
    func overlongLine() async {
        let streamed = linesRoute(["count": "2", "pad": "4000"]).streamRequest(maximumLineLength: 1024)
        let (lines, error) = await streamed.lines.collected()
        #expect(lines.isEmpty)
        #expect((error?.cause as? RequestError.Cause.LineTooLong)?.maximumLength == 1024)
        #expect(error?.userMessage == "A line of the server's response was too long (over 1 KiB).")
    }

    @Test("U4 ending the iteration cancels the request: the server sees the connection close")
    func breakClosesTheConnection() async throws {
        let streamed = linesRoute(["count": "100000000", "gone": "reader"]).streamRequest()
        var count = 0
        for try await _ in streamed.lines {
            count += 1
            if count == 3 { break }
        }
        await fixture.server.waitForMark("gone reader")
        await waitUntil { streamed.request.state == .completed }
        #expect(streamed.request.completedResponse?.response.isCancellation == true)
    }

    @Test("U5 a 401 before the body renews the credential once; the body comes from the repeat")
    func authenticated() async {
        let auth = Authenticator(credential: "stale") { service in
            try await service.resource("/auth/refresh").request(.get).content(as: String.self)
        }
        service.configure("/auth/private/**") { $0.authenticator = auth }
        let streamed = service.resource("/auth/private/feed").streamRequest()
        let (lines, error) = await streamed.lines.collected()
        #expect(error == nil)
        #expect(lines == ["private feed"])
        #expect(auth.credential == "fresh-token")
    }

    @Test("U5 a connection lost after the first piece reached the app is not retried")
    func notRetriedAfterFirstByte() async throws {
        final class Attempts {
            var values: [Int] = []
        }
        let attempts = Attempts()
        service.configure("/lines") {
            $0.retryPolicy = RetryPolicy(maximumAttempts: 3, baseDelay: 0)
        }
        let monitor = service.monitorRequests(matching: "/lines", owner: attempts) { attempts, metrics in
            attempts.values.append(metrics.attempts)
        }
        defer { monitor.cancel() }
        let streamed = linesRoute(["count": "3", "hold": "cut", "cut": "1"]).streamRequest()
        var lines = streamed.lines.makeAsyncIterator()
        #expect(try await lines.next() == #"{"n": 0}"#)  // the server holds the rest until released
        await release("cut")
        var failure: (any Error)?
        do {
            while try await lines.next() != nil {}
        } catch {
            failure = error
        }
        #expect(failure is RequestError)
        await waitUntil { !attempts.values.isEmpty }
        #expect(attempts.values == [1])
    }

    @Test("U4 a reader slower than the network keeps at most the buffer in memory; the rest waits on disk, in order")
    func slowReaderKeepsMemoryFlat() async throws {
        let size = 16 * 1024 * 1024
        let buffer = 256 * 1024
        let streamed = service.resource("/ranged/\(size)").streamRequest(bufferSize: buffer)
        let read = try await Self.readAfterTheWholeBodyArrived(streamed)
        #expect(read.spilled > size / 2)
        #expect(read.total == size)
        #expect(read.isInOrder)
        #expect(read.mostInMemory <= buffer + read.largestPiece)
    }

    @Test("U4 a reader that awaits another request between two pieces gets its answer while the body keeps coming")
    func readerAwaitsAnotherRequest() async throws {
        let size = 8 * 1024 * 1024
        let streamed = service.resource("/ranged/\(size)").streamRequest(bufferSize: 64 * 1024)
        var pieces = streamed.bytes.makeAsyncIterator()
        var total = try await pieces.next()?.count ?? 0
        // Were the network's thread to wait for this reader, the answer could never arrive.
        let other = await service.resource("/count/reader").request(.get).response
        #expect((try? other.get()) != nil)
        while let piece = try await pieces.next() { total += piece.count }
        #expect(total == size)
    }

    /// Reads `streamed`'s first piece, stops reading until the whole body arrived, then reads the rest, checking the
    /// loopback server's pattern (byte `i` is `(i % 251 × 31 + 7) % 251`): off the main actor, as an app's reading task would.
    nonisolated private static func readAfterTheWholeBodyArrived(
        _ streamed: StreamedRequest
    ) async throws -> (spilled: Int, total: Int, isInOrder: Bool, largestPiece: Int, mostInMemory: Int) {
        var pieces = streamed.bytes.makeAsyncIterator()
        var total = 0
        var isInOrder = true
        var largestPiece = 0
        func take(_ piece: Data) {
            for (offset, byte) in piece.enumerated() where byte != UInt8(((total + offset) % 251 * 31 + 7) % 251) {
                isInOrder = false
                break
            }
            total += piece.count
            largestPiece = max(largestPiece, piece.count)
        }
        if let first = try await pieces.next() { take(first) }
        await Self.completion(of: streamed.request)  // the whole body arrived, unread
        let spilled = streamed.stream.spilledByteCount
        var mostInMemory = streamed.stream.bufferedByteCount
        while let piece = try await pieces.next() {
            take(piece)
            mostInMemory = max(mostInMemory, streamed.stream.bufferedByteCount)
        }
        return (spilled, total, isInOrder, largestPiece, mostInMemory)
    }

    @MainActor
    private static func completion(of request: Request) async {
        _ = await request.response
    }
}
