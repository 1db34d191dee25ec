import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// The network coming back and the app becoming active reload what is on screen and stale (rule R8). Tests send
/// the signals by hand.
@MainActor
@Suite("Reconnect and become-active", .checksLifetimes)
struct ReconnectTests {
    let scheduler = TestScheduler(now: .seconds(1000))
    let network = ManualNetwork()
    let reconnected = SignalSource<Void>()
    let becameActive = SignalSource<Void>()
    let service: Service

    init() {
        service = Service(
            baseURL: "https://api.example.com",
            options: .init(
                networking: network, scheduler: scheduler, reconnected: reconnected.signal,
                becameActive: becameActive.signal))
        LifetimeCheck.track(service)
    }

    private func loaded(_ path: String, at time: TimeInterval) -> Resource {
        let resource = service.resource(path)
        resource.overrideLocalData(with: Entity<Any>(content: "data", contentType: "text/plain", timestamp: time))
        return resource
    }

    @Test("R8 when the network comes back, every observed resource with stale data loads; others wait")
    func reconnectLoadsStaleObserved() async throws {
        let owner = NSObject()
        let stale = loaded("/stale", at: 900)
        let fresh = loaded("/fresh", at: 990)
        let unobserved = loaded("/unobserved", at: 900)
        stale.addObserver(owner: owner) { _, _ in }
        fresh.addObserver(owner: owner) { _, _ in }
        #expect(network.sent.isEmpty)

        reconnected.send(())
        #expect(network.sent.map { URL(string: $0.url)?.path } == ["/stale"])
        #expect(unobserved.loadRequests.isEmpty && fresh.loadRequests.isEmpty)
        await network.failPending()
        withExtendedLifetime(owner) {}
    }

    @Test("R8 becoming active does the same, and a load in flight is not doubled")
    func becomingActive() async throws {
        let stale = loaded("/stale", at: 900)
        let subscription = stale.state.observe { _ in }
        becameActive.send(())
        becameActive.send(())
        reconnected.send(())
        #expect(network.sent.count == 1)
        await network.failPending()
        subscription.cancel()
    }

    @Test("R8 a dropped service stops listening")
    func droppedServiceStopsListening() async throws {
        weak var dropped: Service?
        do {
            let other = Service(
                baseURL: "https://api.example.com",
                options: .init(networking: network, scheduler: scheduler, reconnected: reconnected.signal))
            dropped = other
        }
        #expect(dropped == nil)
        reconnected.send(())
        #expect(network.sent.isEmpty)
    }

    @Test(
        "R8 on Linux the service listens to nothing unless given signals",
        .enabled(if: !platformSendsSystemSignals, "this platform has a path monitor or app activations"))
    func noSystemDefaultsHere() {
        #expect(Service.Options.systemReconnections() == nil)
        #expect(Service.Options.systemActivations() == nil)
        #expect(Service.Options(networking: network).reconnected == nil)
        #expect(Service.Options(networking: network).becameActive == nil)
    }
}

/// Whether this platform has a source for the service's default reconnection or activation signals: the network
/// path monitor, UIKit or AppKit. Where it has none, R8's test runs; elsewhere it is skipped, not passed empty.
private let platformSendsSystemSignals: Bool = {
    #if canImport(Network) || canImport(UIKit) || canImport(AppKit)
    return true
    #else
    return false
    #endif
}()
