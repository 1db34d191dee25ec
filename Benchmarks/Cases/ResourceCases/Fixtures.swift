import Foundation
import Repose
import ReposeTesting

/// An object that only serves as an observer's owner.
final class Owner {}

/// Counts what observers hear, so the optimiser cannot drop the delivery.
@MainActor
final class Tally {
    var count = 0
}

let baseURL = "https://api.example.com"

/// A service whose requests are answered at once by the stub provider with a tiny JSON body.
@MainActor
func stubbedService(body: StubResponse = .json(["id": 1, "name": "Ada"])) -> Service {
    Service(baseURL: baseURL, options: .init(networking: stubProvider(body: body)))
}

/// A stub provider that answers every request at once with `body`.
func stubProvider(body: StubResponse = .json(["id": 1, "name": "Ada"])) -> StubNetworkingProvider {
    let network = StubNetworkingProvider()
    network.stub(StubMatcher(nil, where: { _ in true }), body)
    return network
}

func paths(_ count: Int, prefix: String = "items") -> [String] {
    (0..<count).map { "/\(prefix)/\($0)" }
}

extension Resource {
    /// Loads and waits for the load to complete, as an app awaits one.
    func loadAndWait() async {
        _ = await load().responseInfo
    }
}

/// Starts every load at once and calls `done` once all have completed.
@MainActor
func loadAll(_ resources: [Resource], then done: @escaping @MainActor () -> Void) {
    var remaining = resources.count
    for resource in resources {
        resource.load().onCompletion { _ in
            remaining -= 1
            if remaining == 0 { done() }
        }
    }
}

/// Loads the resources one after another, each starting in the previous one's completion hook, and calls `done`
/// in the last one's.
@MainActor
func loadInSequence(_ resources: [Resource], then done: @escaping @MainActor () -> Void) {
    var next = resources.makeIterator()
    @MainActor func loadNext() {
        guard let resource = next.next() else { return done() }
        resource.load().onCompletion { _ in loadNext() }
    }
    loadNext()
}

/// A service holding `count` live resources, each with fresh data and (if `observed`) one observer; the app holds
/// them all. Built once per scale and kept for every case that measures at that scale.
@MainActor
final class ScalingFixture {
    let service: Service
    let resources: [Resource]
    let owner = Owner()
    let tally = Tally()

    private static var built: (key: String, fixture: ScalingFixture)?

    static func holding(_ count: Int, observed: Bool = true) -> ScalingFixture {
        let key = "\(count) \(observed)"
        if let built, built.key == key { return built.fixture }
        built = nil  // one scale at a time keeps the machine's memory in check
        let fixture = ScalingFixture(count: count, observed: observed)
        built = (key, fixture)
        return fixture
    }

    private init(count: Int, observed: Bool) {
        let service = stubbedService()
        service.configure("/items/*") { $0.expirationTime = 3600 }
        self.service = service
        // Each path twice, so that the cases that look them up again find them known (a path's canonical key is
        // remembered on its second lookup).
        resources = paths(count).map { path in
            _ = service.resource(path)
            return service.resource(path)
        }
        for resource in resources {
            resource.overrideLocalContent(with: "data")
            guard observed else { continue }
            resource.addObserver(owner: owner) { [tally] _, _ in tally.count &+= 1 }
        }
    }
}
