import Foundation
import Repose
import ReposeStorage

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// What writes cost. A resource recomputes what it shows whenever its server data or its pending changes change;
// the first cases time that with 0, 1 and 10 merge changes pending (0 is every resource without a write, the
// budget: no extra cost). The last cases drain an outbox of 1,000 writes to 100 resources, queued while the network
// was down, against the loopback server, files on disk included, and send the same writes as plain requests. The
// figures are in Docs/Performance.md.
func writeBenchmarks() {
    for pending in [0, 1, 10] {
        mainActorBenchmark("Writes: new server data under \(pending) pending changes", configuration(.kilo)) {
            measured in
            let fixture = PendingChangesFixture(pending: pending)
            await measured.run {
                for _ in measured.iterations { fixture.repo.overrideLocalData(with: fixture.serverData) }
            }
            blackHole(fixture.repo.latestData)
            fixture.end()
        }
    }
    let writes = isSmokeRun ? 100 : 1_000
    mainActorBenchmark(
        "Outbox of \(writes) queued writes drained over loopback (per batch)", configuration(.one, seconds: 5)
    ) {
        measured in
        guard let fixture = await OutboxFixture(writes: writes) else { return }
        fixture.network.isOffline = false
        await measured.runTask { await fixture.service.outbox.send() }
        blackHole(fixture.service.outbox.status.pending.count)
        fixture.end()
    }
    // The same writes as plain requests, each resource's one after another: what the outbox adds to sending them.
    let baseline = "Outbox baseline: \(writes) PATCHes as plain requests, in turn per resource (per batch)"
    mainActorBenchmark(baseline, configuration(.one, seconds: 5)) { measured in
        guard let base = LoopbackServer.shared.baseURL else { return }
        let service = Service(baseURL: base, options: .init(reconnected: nil, becameActive: nil))
        await measured.runTask { await PlainWrites(service: service, writes: writes).send() }
    }
}

/// `writes` PATCHes to 100 resources as plain requests, each resource's sent when its previous one completes.
@MainActor
private final class PlainWrites {
    let service: Service
    let writes: Int
    private var remaining = 100
    private var done: CheckedContinuation<Void, Never>?

    init(service: Service, writes: Int) {
        self.service = service
        self.writes = writes
    }

    func send() async {
        await withCheckedContinuation { continuation in
            done = continuation
            for resource in 0..<100 { send(resource, to: service.resource("/notes/\(resource)")) }
        }
    }

    private func send(_ index: Int, to note: Resource) {
        guard index < writes else {
            remaining -= 1
            if remaining == 0 { done?.resume() }
            return
        }
        note.request(.patch, json: ["n": index]).onCompletion { [self] _ in send(index + 100, to: note) }
    }
}

/// A repository with `pending` optimistic changes over its data, whose writes never get an answer.
@MainActor
private final class PendingChangesFixture {
    let service = Service(
        baseURL: baseURL, options: .init(networking: SilentNetwork(), reconnected: nil, becameActive: nil))
    let repo: Resource
    let serverData = Entity<Any>(content: ["name": "repose", "stars": 1], contentType: "application/json")
    private let writes: [Request]

    init(pending: Int) {
        repo = service.resource("/repos/1")
        repo.overrideLocalData(with: serverData)
        let repo = repo
        writes = (0..<pending).map { repo.request(.patch, json: [:], showing: .merge(["stars": $0 + 2])) }
    }

    func end() {
        for write in writes { write.cancel() }
    }
}

/// A service over a fresh outbox folder holding `writes` PATCHes to 100 resources, all waiting for the network.
@MainActor
private final class OutboxFixture {
    let network = SwitchableNetwork()
    let service: Service
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-bench-\(UUID().uuidString)")

    init?(writes: Int) async {
        guard let base = LoopbackServer.shared.baseURL else { return nil }
        service = Service(
            baseURL: base,
            options: .init(networking: network, reconnected: nil, becameActive: nil, outbox: .files(in: folder)))
        service.configure { $0.usesOutbox = true }
        for index in 0..<writes {
            service.resource("/notes/\(index % 100)").request(.patch, json: ["n": index])
        }
        await service.outbox.send()  // every first attempt fails: each resource's oldest write waits
    }

    func end() {
        try? FileManager.default.removeItem(at: folder)
    }
}

/// The loopback session's provider, failing every request as a network that is down would while ``isOffline``.
private final class SwitchableNetwork: NetworkingProvider, @unchecked Sendable {
    // @unchecked Sendable: `lock` guards `offline`; the wrapped provider is Sendable.
    private let wrapped = URLSessionProvider()
    private let lock = NSLock()
    private var offline = true

    var isOffline: Bool {
        get { lock.withLock { offline } }
        set { lock.withLock { offline = newValue } }
    }

    func startTransfer(_ request: URLRequest, into sink: any ResponseSink) -> any NetworkingTask {
        guard isOffline else { return wrapped.startTransfer(request, into: sink) }
        DispatchQueue.global().async { sink.finish(URLError(.notConnectedToInternet)) }
        return NoTransfer()
    }

    private struct NoTransfer: NetworkingTask {
        func cancel() {}
    }
}

/// A network that never answers, so that the pending changes stay pending: an offline network fails them from
/// another queue, and in the app-like mode the main queue runs those failures before the measured region starts.
private struct SilentNetwork: NetworkingProvider {
    func startTransfer(_ request: URLRequest, into sink: any ResponseSink) -> any NetworkingTask {
        NoAnswer()
    }

    private struct NoAnswer: NetworkingTask {
        func cancel() {}
    }
}
