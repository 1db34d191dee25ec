import Foundation

extension Outbox {
    /// Takes a new mutation: keeps it on disk at once, then sends it when no earlier mutation of its resource is
    /// pending. Returns the request its caller holds, which completes with the mutation's outcome in this launch.
    func submit(_ data: MutationData, change: PendingChange?, from resource: Resource) -> Request {
        let entry = OutboxEntry(data: data, sequence: nextSequence, change: change)
        nextSequence += 1
        if entry.isStorable { files?.write(entry.stored) }
        let request = Request(delegate: OutboxRequestDelegate(outbox: self, key: entry.key), now: resource.core.now)
        entries.append(entry)
        resource.trackRequest(request)
        if let target = core?.resource(url: URL(string: entry.changeTarget), source: entry.changeTarget),
            target !== resource
        {
            target.trackRequest(request)
        }
        return request.start()
    }

    /// The caller's request started: it hears the outcome of `key`, which goes as soon as it may.
    func attach(_ caller: RequestCompletionHandler, toMutation key: String) {
        guard let index = entries.firstIndex(where: { $0.key == key }) else { return }
        entries[index].caller = caller
        publish()
        drain()
    }

    /// Puts the mutations of earlier launches before those of this one, shows their changes, and sends them.
    func finishReading(_ stored: [StoredMutation]) {
        let known = Set(entries.map(\.key))
        var restored: [OutboxEntry] = []
        for item in stored where !known.contains(item.key) {
            let change = item.mutation.change?.change.map {
                PendingChange(id: PendingChange.nextID(), change: $0, startedAt: item.mutation.createdAt)
            }
            var entry = OutboxEntry(data: item.mutation, sequence: item.sequence, change: change)
            entry.wasKept = true
            restored.append(entry)
        }
        nextSequence = max(nextSequence, (stored.map(\.sequence).max() ?? -1) + 1)
        entries.insert(contentsOf: restored, at: 0)
        isReading = false
        // Resources made before the folder was read show the restored changes beneath their own.
        for target in Set(restored.compactMap { $0.change == nil ? nil : $0.changeTarget }) {
            let changes = restored.compactMap { $0.changeTarget == target ? $0.change : nil }
            core?.resourceCache.resource(forKey: ResourceKey(target))?.apply(.changesRestored(changes))
        }
        drain()  // publishes once what is sent at launch is on its way
    }

    /// Sends each resource's oldest pending mutation, unless it is on its way already or waits for the network.
    func drain() {
        guard !isReading else { return }
        var busy: Set<String> = []
        for index in entries.indices {
            let (url, phase) = (entries[index].data.url, entries[index].phase)
            guard busy.insert(url).inserted, case .ready = phase else { continue }
            attempt(index)
        }
        publish()
    }

    /// Sends the mutation at `index` once more: a new request built from its data (rule M11).
    private func attempt(_ index: Int) {
        let entry = entries[index]
        guard let resource = core?.resource(url: URL(string: entry.data.url), source: entry.data.url) else { return }
        let request = resource.sendMutation(entry.data)
        entries[index].phase = .sending(request)
        let key = entry.key
        request.onCompletion { [weak self] info in
            self?.finishAttempt(key, request: request, info: info)
        }
    }

    private func finishAttempt(_ key: String, request: Request, info: ResponseInfo) {
        guard let index = entries.firstIndex(where: { $0.key == key }),
            case .sending(let current) = entries[index].phase, current === request
        else { return }  // withdrawn meanwhile
        if case .failure(let error) = info.response, mustWait(after: error, wasKept: entries[index].wasKept) {
            entries[index].phase = .waiting
            entries[index].wasKept = true
            publish()
            return
        }
        let entry = entries.remove(at: index)
        files?.remove(key)
        if let change = entry.change, let resource = core?.resource(url: URL(string: entry.data.url), source: nil),
            let target = core?.resource(url: URL(string: entry.changeTarget), source: nil)
        {
            target.endChange(
                resource.changeOutcome(
                    change.id, info: info, method: entry.data.requestMethod, showsOnSelf: target === resource))
        }
        if case .failure(let error) = info.response {
            failures.append(Failure(item: item(entry), error: error))  // M9: its caller may be gone
        }
        entry.caller?.broadcastResponse(info)
        drain()
    }

    /// Whether a failed attempt keeps its mutation: the network failed (or the attempt was cancelled from outside,
    /// by a wipe of its resource, say), or the server could not take a mutation that had already waited.
    private func mustWait(after error: RequestError, wasKept: Bool) -> Bool {
        if error.isCancellation { return true }
        guard let status = error.httpStatusCode else { return error.cause.map(RetryPolicy.isTransient) ?? false }
        return wasKept && (status >= 500 || status == 408 || status == 429)
    }

    private func item(_ entry: OutboxEntry) -> Item {
        Item(
            idempotencyKey: entry.key, method: entry.data.requestMethod, url: entry.data.parsedURL,
            createdAt: entry.data.createdAt, isWaiting: false)
    }

    /// The caller cancelled the mutation `key`: it is withdrawn, its change goes, and an attempt on its way stops.
    func withdraw(_ key: String) {
        guard let index = entries.firstIndex(where: { $0.key == key }) else { return }
        let entry = entries.remove(at: index)
        end(entry)
        drain()
    }

    /// Forgets every mutation whose URL satisfies `predicate`: their changes go, their callers see a cancellation,
    /// their files are removed (log-out, through `Service.wipeResources()`).
    func removeMutations(where predicate: (URL) -> Bool) {
        let (gone, kept) = (
            entries.filter { URL(string: $0.data.url).map(predicate) ?? true },
            entries.filter { !(URL(string: $0.data.url).map(predicate) ?? true) }
        )
        entries = kept
        for entry in gone {
            end(entry)
            entry.caller?.broadcastResponse(.cancellation(timestamp: core?.now() ?? 0))
        }
        publish()
    }

    private func end(_ entry: OutboxEntry) {
        files?.remove(entry.key)
        if case .sending(let request) = entry.phase { request.cancel() }
        if let change = entry.change {
            core?.resourceCache.resource(forKey: ResourceKey(entry.changeTarget))?.apply(.changeFailed(id: change.id))
        }
    }

    /// The app let go of its service: callers hear that their requests ended (cancelled); the mutations stay, on
    /// disk, for the next launch.
    func serviceReleased() {
        let now = core?.now() ?? 0
        for index in entries.indices {
            let caller = entries[index].caller
            entries[index].caller = nil
            caller?.broadcastResponse(.cancellation(timestamp: now))
        }
    }
}

/// The request a caller holds for a mutation the outbox sends: it completes with the mutation's outcome, and
/// cancelling it withdraws the mutation.
@MainActor
final class OutboxRequestDelegate: RequestDelegate {
    private weak var outbox: Outbox?
    private let key: String

    init(outbox: Outbox, key: String) {
        self.outbox = outbox
        self.key = key
    }

    func startUnderlyingOperation(passingResponseTo completionHandler: RequestCompletionHandler) {
        outbox?.attach(completionHandler, toMutation: key)
    }

    func cancelUnderlyingOperation() {
        outbox?.withdraw(key)
    }

    func repeated() -> any RequestDelegate {
        self  // the outbox sends again by itself; a repeat would send the same mutation twice
    }

    var requestDescription: String {
        "outbox mutation \(key)"
    }
}
