import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// The bookkeeping of request metrics on the manual network and virtual time: every time is the service's clock.
@MainActor
@Suite("X1 request metrics and monitors", .checksLifetimes)
struct RequestMetricsTests {
    /// What the monitors heard, in order; the owner of every monitor these tests attach.
    final class Heard {
        var events: [String] = []
        var metrics: [RequestMetrics] = []
    }

    let harness = Harness()
    let heard = Heard()
    var network: ManualNetwork { harness.network }

    /// Adds a monitor for `pattern` that writes what it hears to `heard`, each line prefixed with `name`.
    func monitor(_ pattern: String = "**", name: String = "m") {
        harness.service.monitorRequests(
            matching: pattern, owner: heard,
            started: { heard, method, url in heard.events.append("\(name) start \(method) \(url.path)") }
        ) { heard, metrics in
            heard.events.append("\(name) done \(metrics.url.path)")
            heard.metrics.append(metrics)
        }
    }

    func advance(seconds: Int) {
        harness.scheduler.advance(by: .seconds(seconds))
    }

    @Test("X1 a monitor hears the start, then times, bytes, status and source from the service's clock")
    func timesAndBytes() async throws {
        monitor()
        let resource = harness.service.resource("/items")
        let load = resource.load()
        #expect(heard.events == ["m start get /v1/items"])
        advance(seconds: 2)
        await network.reportProgress(TransferProgress(bytesReceived: 3, bytesExpectedToReceive: 10))
        advance(seconds: 1)
        await harness.answer(load, text: "0123456789")
        let metrics = try #require(heard.metrics.first)
        #expect(heard.events == ["m start get /v1/items", "m done /v1/items"])
        #expect(metrics.method == .get)
        #expect(metrics.statusCode == 200)
        #expect(metrics.queued == 1000 && metrics.started == 1000)
        #expect(metrics.firstByte == 1002)
        #expect(metrics.timeToFirstByte == 2)
        #expect(metrics.finished == 1003 && metrics.duration == 3)
        #expect(metrics.bytesReceived == 10 && metrics.bytesSent == 0)
        #expect(metrics.source == .network)
        #expect(metrics.attempts == 1)
    }

    @Test("E11 X1 a request cancelled from a monitor's started closure is final: nothing is sent, the monitor hears it")
    func cancelFromStarted() async throws {
        let resource = harness.service.resource("/items")
        let first = resource.load()
        await harness.answer(first, text: "old")
        let again = first.repeated()
        harness.service.monitorRequests(
            owner: heard,
            started: { [weak again] heard, _, _ in  // the monitor must not keep the request
                heard.events.append("start")
                again?.cancel()
            }
        ) { heard, metrics in heard.metrics.append(metrics) }
        again.start()
        let response = await again.response
        #expect(response.error?.isCancellation == true)
        #expect(heard.events == ["start"])
        #expect(heard.metrics.map(\.source) == [.none])
        #expect(network.sent.count == 1)  // the first load only
        #expect(network.pendingCount == 0)
    }

    @Test("X1 bytes sent count the request's body; a 304 is heard as notModified, a transport failure as none")
    func sources() async throws {
        monitor()
        let resource = harness.service.resource("/items")
        await harness.answer(resource.load(), text: "hello", headers: ["ETag": "\"v1\""])
        let revalidation = resource.load()
        await network.respond(status: 304)
        _ = await revalidation.responseInfo
        let post = resource.request(.post, text: "abc")
        await network.fail(with: URLError(.notConnectedToInternet))
        _ = await post.responseInfo
        #expect(heard.metrics.map(\.source) == [.network, .notModified, .none])
        #expect(heard.metrics.map(\.statusCode) == [200, 304, nil])
        #expect(heard.metrics.map(\.bytesSent) == [0, 0, 3])
        #expect(heard.metrics.map(\.bytesReceived) == [5, 0, 0])
    }

    @Test("X1 what the provider measured of the connection, and an answer from URLCache, reach the metrics")
    func connectionAndCache() async throws {
        monitor()
        let resource = harness.service.resource("/items")
        let connection = ConnectionMetrics(
            domainLookup: 0.01, connect: 0.05, secureConnection: 0.03, isReused: false, networkProtocol: "h2")
        let load = resource.load()
        await network.respond(with: NetworkResponse(statusCode: 200, body: Data("a".utf8), connection: connection))
        _ = await load.responseInfo
        let cached = resource.load()
        await network.respond(
            with: NetworkResponse(
                statusCode: 200, body: Data("b".utf8), connection: ConnectionMetrics(isReused: true), isFromCache: true)
        )
        _ = await cached.responseInfo
        let failed = resource.load()
        await network.fail(with: URLError(.timedOut))
        _ = await failed.responseInfo
        #expect(heard.metrics.map(\.source) == [.network, .cache, .none])
        #expect(heard.metrics.map(\.connection) == [connection, ConnectionMetrics(isReused: true), nil])
    }

    @Test("X1 a retried request is heard once, with every attempt counted and started at the last attempt")
    func retries() async throws {
        harness.service.configure {
            $0.retryPolicy = RetryPolicy(maximumAttempts: 3, baseDelay: 1, maximumDelay: 30, jitter: 0) { 0 }
        }
        monitor()
        let load = harness.service.resource("/items").load()
        await network.respond(status: 503)
        await waitUntil { (load.delegate as? NetworkRequest)?.isWaitingToRetry == true }
        advance(seconds: 1)
        await harness.answer(load, text: "ok")
        let metrics = try #require(heard.metrics.first)
        #expect(heard.metrics.count == 1)
        #expect(heard.events.filter { $0.contains("start") }.count == 1)
        #expect(metrics.attempts == 2)
        #expect(metrics.queued == 1000 && metrics.started == 1001 && metrics.duration == 1)
        #expect(metrics.statusCode == 200)
    }

    @Test("X1 the authenticator's repeat after a 401 counts on from the request it repeats")
    func authenticatorRepeat() async throws {
        let auth = Authenticator(credential: "old") { service in
            try await service.resource("/auth/token").request(.post, text: "renew").content(as: String.self)
        }
        harness.service.configure { [auth] in $0.authenticator = auth }
        monitor("/items/**")
        let load = harness.service.resource("/items/a").load()
        await network.respond(status: 401)
        await waitUntil { network.sent.count == 2 }
        await network.respond(status: 200, contentType: "text/plain", text: "new")
        await waitUntil { network.sent.count == 3 }
        await harness.answer(load, text: "the items")
        #expect(heard.metrics.map(\.attempts) == [1, 2])
        #expect(heard.metrics.map(\.statusCode) == [401, 200])
    }

    @Test("X1 monitors are chosen by URL pattern and add up; a cancelled request is heard too")
    func patterns() async throws {
        monitor("/a/**", name: "a")
        monitor("**", name: "all")
        let a = harness.service.resource("/a/1").load()
        let b = harness.service.resource("/b").load()
        b.cancel()
        await harness.answer(a, text: "x")
        #expect(
            heard.events == [
                "a start get /v1/a/1", "all start get /v1/a/1", "all start get /v1/b", "all done /v1/b",
                "a done /v1/a/1", "all done /v1/a/1",
            ])
        #expect(heard.metrics.first?.source == RequestMetrics.Source.none)
    }

    @Test("X1 with no monitor nothing is measured: no recorder, no metrics kept, `-` in the inspector")
    func noMonitor() async throws {
        harness.service.monitorRequests(owner: heard) { _ in }.cancel()
        let resource = harness.service.resource("/items")
        let load = resource.load()
        #expect((load.delegate as? NetworkRequest)?.isMeasuring == false)
        await harness.answer(load, text: "hello")
        #expect(resource.latestMetrics == nil)
        #expect(harness.service.inspect().resources.first?.lastRequestDuration == nil)
    }

    @Test("X1 the inspector shows the latest monitored request's duration, bytes and source")
    func inspector() async throws {
        monitor()
        let resource = harness.service.resource("/items")
        let load = resource.load()
        #expect((load.delegate as? NetworkRequest)?.isMeasuring == true)
        advance(seconds: 2)
        await harness.answer(load, text: "hello")
        let row = try #require(harness.service.inspect().resources.first)
        #expect(row.lastRequestDuration == 2)
        #expect(row.lastRequestBytes == 5)
        #expect(row.lastRequestSource == .network)
        let lines = harness.service.inspect().table().split(separator: "\n")
        #expect(lines.first?.contains("  etag  last  ") == true)
        #expect(lines.first?.hasSuffix("  error") == true)
        #expect(lines.last?.contains("2.000s 5B network") == true)
    }
}
