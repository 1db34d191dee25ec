import Foundation
import Repose
import ReposeStorage

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// What the outbox costs per write, at 1,000 and 10,000 writes, to 1 resource and to 100: queuing (main-actor time,
// in memory, and over a folder where each write's journal line is written before `request` returns), and draining writes that
// waited for the network, against the same requests sent by hand, in turn per resource. The network answers at
// once, so the figures are the outbox's own work; they should grow linearly with the writes (rule T4).
func outboxBenchmarks() {
    for writes in isSmokeRun ? [100] : [1_000, 10_000] {
        for resources in [1, 100] {
            let shape = "\(writes) writes to \(resources) resource\(resources == 1 ? "" : "s")"
            mainActorBenchmark("Outbox: queue \(shape), in memory (per batch)", configuration(.one, seconds: 3)) {
                measured in
                let fixture = QueuedWrites(resources: resources, folder: false)
                await measured.run { fixture.queue(writes) }
                await fixture.end()
            }
            mainActorBenchmark("Outbox: drain \(shape) (per batch)", configuration(.one, seconds: 3)) { measured in
                let fixture = QueuedWrites(resources: resources, folder: false)
                fixture.queue(writes)
                await fixture.service.outbox.send()  // every first attempt fails: the writes wait
                fixture.network.isOffline = false
                await measured.runTask { await fixture.service.outbox.send() }
                await fixture.end()
            }
            mainActorBenchmark(
                "Outbox baseline: \(shape) as plain requests (per batch)", configuration(.one, seconds: 3)
            ) {
                measured in
                let fixture = QueuedWrites(resources: resources, folder: false)
                fixture.network.isOffline = false
                await measured.runTask { await fixture.sendByHand(writes) }
                await fixture.end()
            }
        }
    }
    // Making and sending n writes that each show an optimistic change on one observed resource, through the outbox
    // (one after another) and at once, until the reload that confirms them has replaced every change: linear in n
    // (rule T4), where applying every pending change again at each step made 2,000 writes take seconds.
    for writes in isSmokeRun ? [100] : [1_000, 2_000] {
        for throughOutbox in [true, false] {
            let way = throughOutbox ? "through the outbox" : "at once"
            mainActorBenchmark(
                "Optimistic writes: make and send \(writes) to 1 observed resource, \(way) (per batch)",
                configuration(.one, seconds: 3)
            ) {
                measured in
                let fixture = QueuedWrites(resources: 1, folder: false, usesOutbox: throughOutbox)
                fixture.network.isOffline = false
                await measured.runTask { await fixture.writeOptimistically(writes) }
                await fixture.end()
            }
        }
    }
    // Over a folder, each write's line is added to the journal on the main actor before `request` returns; the
    // journal's flush to the device runs on the outbox's queue, once for the writes made meanwhile.
    for writes in isSmokeRun ? [100] : [1_000, 10_000] {
        mainActorBenchmark(
            "Outbox: queue \(writes) writes to 100 resources, over a folder (per batch)",
            configuration(.one, seconds: 3)
        ) {
            measured in
            let fixture = QueuedWrites(resources: 100, folder: true)
            await measured.run { fixture.queue(writes) }
            await fixture.end()
        }
    }
}

/// A service whose writes to `resources` notes use the outbox, over a network that fails everything while offline
/// and accepts everything at once otherwise.
@MainActor
private final class QueuedWrites {
    let network = InstantNetwork()
    let service: Service
    let notes: [Resource]
    private let folder: URL?

    init(resources: Int, folder useFolder: Bool, usesOutbox: Bool = true) {
        folder =
            useFolder
            ? FileManager.default.temporaryDirectory.appendingPathComponent("outbox-bench-\(UUID().uuidString)") : nil
        let service = Service(
            baseURL: baseURL,
            options: .init(
                networking: network, reconnected: nil, becameActive: nil,
                outbox: folder.map { .files(in: $0) } ?? .memory))
        service.configure { $0.usesOutbox = usesOutbox }
        notes = (0..<resources).map { service.resource("/notes/\($0)") }
        self.service = service
    }

    func queue(_ writes: Int) {
        for index in 0..<writes {
            notes[index % notes.count].request(.post, json: ["n": index])
        }
    }

    /// Makes `writes` writes to the first note, each showing a change, while it is observed; returns once they are
    /// answered and a reload has replaced their changes with the server's data.
    func writeOptimistically(_ writes: Int) async {
        let note = notes[0]
        let observation = note.state.observe { _ in }
        var requests: [Request] = []
        for index in 0..<writes {
            requests.append(note.request(.post, json: ["n": index], showing: .merge(["n": index])))
        }
        for request in requests { _ = await request.response }
        for await state in note.state.values where state.pendingChanges == 0 && !state.isLoading { break }
        observation.cancel()
    }

    /// The same writes as plain requests, each resource's sent when its previous one completes.
    func sendByHand(_ writes: Int) async {
        await HandSender(notes: notes, writes: writes).send()
    }

    func end() async {
        network.isOffline = true
        for index in 0..<notes.count { notes[index].wipe() }
        service.wipeResources()
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }
}

/// Sends `writes` plain POSTs to `notes`, each note's one after another, as an app without an outbox would.
@MainActor
private final class HandSender {
    let notes: [Resource]
    let writes: Int
    private var remaining: Int
    private var done: CheckedContinuation<Void, Never>?

    init(notes: [Resource], writes: Int) {
        self.notes = notes
        self.writes = writes
        remaining = notes.count
    }

    func send() async {
        await withCheckedContinuation { continuation in
            done = continuation
            for (index, note) in notes.enumerated() { send(index, to: note) }
        }
    }

    private func send(_ index: Int, to note: Resource) {
        guard index < writes else {
            remaining -= 1
            if remaining == 0 { done?.resume() }
            return
        }
        note.request(.post, json: ["n": index]).onCompletion { [self] _ in send(index + notes.count, to: note) }
    }
}

/// Fails every request as a network that is down would while ``isOffline``, and accepts every one otherwise (an
/// empty 204, from another queue, at once). The outbox and queue cases use it.
final class InstantNetwork: NetworkingProvider, @unchecked Sendable {
    // @unchecked Sendable: `lock` guards `offline`.
    private let lock = NSLock()
    private var offline = true

    var isOffline: Bool {
        get { lock.withLock { offline } }
        set { lock.withLock { offline = newValue } }
    }

    func startTransfer(_ request: URLRequest, into sink: any ResponseSink) -> any NetworkingTask {
        let result: Result<NetworkResponse, any Error> =
            isOffline ? .failure(URLError(.notConnectedToInternet)) : .success(NetworkResponse(statusCode: 204))
        DispatchQueue.global().async { sink.deliver(result) }
        return NoTransfer()
    }

    private struct NoTransfer: NetworkingTask {
        func cancel() {}
    }
}
