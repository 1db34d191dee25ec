import Foundation
import Repose
import ReposeTesting
import Testing

@testable import Repose

/// A service on `https://api.example.com` over the stub provider and virtual time, with a scripted event stream at
/// `/events` and a reconnect signal the test fires.
@MainActor
final class EventStreamFixture {
    let base = "https://api.example.com"
    let network = StubNetworkingProvider()
    let scheduler = TestScheduler(now: .seconds(1000))
    let reconnect = SignalSource<Void>()
    let feed: StubEventStream
    let service: Service

    init() {
        feed = network.stubEventStream("https://api.example.com/events")
        service = Service(
            baseURL: base,
            options: .init(networking: network, scheduler: scheduler, reconnected: reconnect.signal, becameActive: nil))
        LifetimeCheck.track(service)
    }

    /// A stream at `/events` that records its states as text while `owner` lives.
    func observedStream(owner: AnyObject, states: StateLog) -> EventStream {
        let stream = service.eventStream("/events")
        stream.connection.observe(owner: owner) { states.values.append($0.description) }
        return stream
    }

    /// Runs what is due on the virtual clock after `seconds`.
    func advance(_ seconds: Double) {
        scheduler.advance(by: .milliseconds(Int(seconds * 1000)))
    }
}

/// The states a stream went through, as text.
@MainActor
final class StateLog {
    var values: [String] = []
}
