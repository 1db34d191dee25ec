import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// How long data stays fresh, decided by what a real server says (rules R1–R4), over `URLSessionProvider` and the
/// loopback server, on virtual time: the service's clock moves only when a test moves it.
@MainActor
@Suite("Freshness from HTTP headers over real HTTP", .checksLifetimes)
final class FreshnessIntegrationTests {
    let fixture: IntegrationFixture
    let scheduler = TestScheduler(now: .seconds(1000))
    let clock: ManualClock
    let service: Service

    init() async throws {
        fixture = try await IntegrationFixture()
        clock = ManualClock(scheduler)
        service = Service(
            baseURL: "http://127.0.0.1:\(fixture.server.port)",
            options: .init(networking: fixture.provider, scheduler: scheduler))
        LifetimeCheck.track(service)
    }

    /// The resource at `/headers/NAME` whose response carries `headers`.
    private func resource(_ name: String, _ headers: [String: String]) -> Resource {
        service.resource("/headers/\(name)").withParams(headers)
    }

    private func readsHeaders() {
        service.configure { $0.freshness = .fromHTTPHeaders }
    }

    /// Runs `loadIfNeeded()` and waits for what it started; `false` if it started nothing.
    private func loadIfNeeded(_ resource: Resource) async throws -> Bool {
        guard let request = resource.loadIfNeeded() else { return false }
        _ = try #require(await fixture.completion(of: request))
        return true
    }

    private func requests(_ name: String) async throws -> String? {
        try #require(await fixture.completion(of: service.resource("/count/\(name)").request(.get)))
            .response.entity?.bodyText
    }

    @Test("R1 with HTTP freshness on, max-age sets the lifetime, and Age is taken off it")
    func maxAgeAndAge() async throws {
        readsHeaders()
        let plain = resource("max", ["Cache-Control": "public, max-age=100"])
        let aged = resource("aged", ["Cache-Control": "max-age=100", "Age": "40"])
        #expect(try await loadIfNeeded(plain))
        #expect(try await loadIfNeeded(aged))
        clock.now += 59.9
        #expect(try await !loadIfNeeded(plain))
        #expect(try await !loadIfNeeded(aged))
        clock.now += 0.1  // 60 s: the aged response had 100 - 40 left
        #expect(try await loadIfNeeded(aged))
        clock.now += 39.9
        #expect(try await !loadIfNeeded(plain))
        clock.now += 0.1  // 100 s
        #expect(try await loadIfNeeded(plain))
    }

    @Test("R1 without max-age, Expires minus Date sets the lifetime; saying nothing keeps expirationTime")
    func expiresAndNothing() async throws {
        readsHeaders()
        let expiring = resource(
            "expires", ["Date": "Tue, 24 Nov 2026 10:00:00 GMT", "Expires": "Tue, 24 Nov 2026 10:02:00 GMT"])
        let silent = resource("silent", [:])
        #expect(try await loadIfNeeded(expiring))
        #expect(try await loadIfNeeded(silent))
        clock.now += 30  // expirationTime is 30 s by default
        #expect(try await loadIfNeeded(silent))
        #expect(try await !loadIfNeeded(expiring))
        clock.now += 90
        #expect(try await loadIfNeeded(expiring))
    }

    @Test("R1 off by default: the rules of section A hold whatever the headers say")
    func offByDefault() async throws {
        let long = resource("long", ["Cache-Control": "max-age=3600"])
        let noCache = resource("nocache-off", ["Cache-Control": "no-cache"])
        #expect(try await loadIfNeeded(long))
        #expect(try await loadIfNeeded(noCache))
        #expect(try await !loadIfNeeded(noCache))
        clock.now += 30
        #expect(try await loadIfNeeded(long))
    }

    @Test("R2 no-cache and max-age=0 make data stale at once, yet one load at a time (A20)")
    func staleAtOnce() async throws {
        readsHeaders()
        for (name, value) in [("nocache", "no-cache"), ("zero", "max-age=0")] {
            let resource = resource(name, ["Cache-Control": value])
            #expect(try await loadIfNeeded(resource))
            let first = try #require(resource.loadIfNeeded())
            #expect(resource.loadIfNeeded() === first)
            _ = try #require(await fixture.completion(of: first))
            #expect(try await loadIfNeeded(resource))
            #expect(try await requests(name) == "3")
        }
    }

    @Test("R3 Last-Modified goes back as If-Modified-Since, HTTP freshness on or off; a 304 keeps the data")
    func lastModified() async throws {
        let resource = resource("modified", ["Last-Modified": "Mon, 23 Nov 2026 08:00:00 GMT"])
        let observer = RecordingObserver()
        resource.addObserver(observer)
        _ = try #require(await fixture.completion(of: resource.load()))
        _ = try #require(await fixture.completion(of: resource.load()))
        #expect(observer.events == ["observerAdded", "requested", "newData(network)", "requested", "notModified"])
        #expect(resource.text == "headers modified")
        #expect(resource.latestData?.timestamp == 1000)

        readsHeaders()
        _ = try #require(await fixture.completion(of: resource.load()))
        #expect(observer.events.last == "notModified")
    }

    @Test("R4 after a 503 with Retry-After, loadIfNeeded waits that long even past retryTime; load() does not")
    func retryAfter() async throws {
        let resource = resource("busy", ["Retry-After": "120", "status": "503"])
        let failed = try #require(await fixture.completion(of: resource.load()))
        #expect(failed.response.error?.httpStatusCode == 503)
        clock.now += 2  // retryTime (1 s) has passed
        #expect(try await !loadIfNeeded(resource))
        clock.now += 117.9
        #expect(try await !loadIfNeeded(resource))
        _ = try #require(await fixture.completion(of: resource.load()))  // load() always loads
        #expect(try await requests("busy") == "2")
        clock.now += 120
        #expect(try await loadIfNeeded(resource))
        #expect(try await requests("busy") == "3")
    }

    @Test("R4 Retry-After as an HTTP date counts from the response's Date")
    func retryAfterDate() async throws {
        let resource = resource(
            "busy-date",
            ["Date": "Tue, 24 Nov 2026 10:00:00 GMT", "Retry-After": "Tue, 24 Nov 2026 10:01:00 GMT", "status": "429"])
        _ = try #require(await fixture.completion(of: resource.load()))
        clock.now += 59.9
        #expect(try await !loadIfNeeded(resource))
        clock.now += 0.1
        #expect(try await loadIfNeeded(resource))
    }
}
