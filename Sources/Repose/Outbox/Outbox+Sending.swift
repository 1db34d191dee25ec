import Foundation

extension Outbox {
    /// Takes a new write: writes its file whole now when it may be stored, then sends it once the file is flushed
    /// and no earlier write of its resource is pending. Returns the request its caller holds, which completes
    /// with the write's outcome in this launch.
    func submit(_ data: WriteData, change: PendingChange?, from resource: Resource) -> Request {
        var entry = OutboxEntry(data: data, sequence: nextSequence, change: change)
        nextSequence += 1
        entry.isStored = store(data, sequence: entry.sequence)
        if entry.isStored, let storage {
            entry.phase = .storing
            storage.flush { [weak self] keys in
                MainRoute.send { [self] in self?.finishStoring(keys) }
            }
        }
        let request = Request(delegate: OutboxRequestDelegate(outbox: self, key: entry.key), now: resource.core.now)
        book.append(entry)
        resource.trackRequest(request)
        if let changeTarget = data.changeTarget,
            let target = core?.resource(url: URL(string: changeTarget), source: changeTarget), target !== resource
        {
            target.trackRequest(request)
        }
        return request.start()
    }

    /// The caller's request started: it hears the outcome of `key`, which goes as soon as it may.
    func attach(_ caller: RequestCompletionHandler, toWrite key: String) {
        guard let url = book[key]?.data.url else { return }
        book.update(key) { $0.caller = caller }
        drain(url)
        publish()
    }

    /// The files of `keys` are on the device: those writes may go.
    func finishStoring(_ keys: [String]) {
        var urls: [String] = []  // in the order the writes were made, so that they leave in that order
        for key in keys {
            guard let entry = book[key], case .storing = entry.phase else { continue }
            book.update(key) { $0.phase = .ready }
            urls.append(entry.data.url)
        }
        drain(each: urls)
    }

    /// Sends every resource's oldest pending write that may go: after the folder was read, or on reconnection.
    /// One walk, in the order the writes were made, so that resources' writes leave in that order.
    func drainAll() {
        var urls: [String] = []
        book.visit { urls.append($0.data.url) }
        drain(each: urls)
    }

    /// Drains the resources at `urls` once each, in that order, then publishes.
    private func drain(each urls: [String]) {
        var seen: Set<String> = []
        for url in urls where seen.insert(url).inserted { drain(url) }
        publish()
    }

    /// Sends the oldest pending write of the resource at `url`, unless it is on its way already, waits for the
    /// network, or is not on the device yet: a look at one entry, whatever the outbox holds (rule T4).
    func drain(_ url: String) {
        guard !isReading, let head = book.head(of: url), case .ready = head.phase else { return }
        guard let resource = core?.resource(url: URL(string: head.data.url), source: head.data.url) else { return }
        let request = resource.sendWrite(head.data)
        book.update(head.key) { $0.phase = .sending(request) }
        let key = head.key
        request.onCompletion { [weak self] info in
            self?.finishAttempt(key, request: request, info: info)
        }
    }

    private func finishAttempt(_ key: String, request: Request, info: ResponseInfo) {
        guard let entry = book[key], case .sending(let current) = entry.phase, current === request else {
            return  // withdrawn meanwhile
        }
        if case .failure(let error) = info.response, mustWait(after: error, wasKept: entry.wasKept) {
            book.update(key) {
                $0.phase = .waiting
                $0.wasKept = true
            }
            publish()
            return
        }
        book.remove(key)
        if entry.isStored { storage?.remove(key) }
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
        drain(entry.data.url)
        publish()
    }

    /// Whether a failed attempt keeps its write: the network failed (or the attempt was cancelled from outside,
    /// by a wipe of its resource, say), or the server could not take a write that had already waited.
    private func mustWait(after error: RequestError, wasKept: Bool) -> Bool {
        if error.isCancellation { return true }
        guard let status = error.httpStatusCode else { return error.cause.map(RetryPolicy.isTransient) ?? false }
        return wasKept && (status >= 500 || status == 408 || status == 429)
    }

    /// The caller cancelled the write `key`: it is withdrawn, its change goes, and an attempt on its way stops.
    func withdraw(_ key: String) {
        guard let entry = book.remove(key) else { return }
        end(entry)
        drain(entry.data.url)
        publish()
    }

    /// Ends `entry`, already out of the book: its file goes (unless `removingFile` is `false`), an attempt on its
    /// way stops, its change goes.
    func end(_ entry: OutboxEntry, removingFile: Bool = true) {
        if entry.isStored, removingFile { storage?.remove(entry.key) }
        reading?.ended.insert(entry.key)  // a read under way may have listed its file before the removal
        if case .sending(let request) = entry.phase { request.cancel() }
        if let change = entry.change {
            core?.resourceTable.resource(forKey: ResourceKey(entry.changeTarget))?.apply(.changeFailed(id: change.id))
        }
    }

    /// The app let go of its service: callers hear that their requests ended (cancelled); the writes stay, on
    /// disk, for the next launch.
    func serviceReleased() {
        let now = core?.now() ?? 0
        for key in book.keys(where: { $0.caller != nil }) {
            let caller = book[key]?.caller
            book.update(key) { $0.caller = nil }
            caller?.broadcastResponse(.cancellation(timestamp: now))
        }
    }
}

/// The request a caller holds for a write the outbox sends: it completes with the write's outcome, and
/// cancelling it withdraws the write.
@MainActor
final class OutboxRequestDelegate: RequestDelegate {
    private weak var outbox: Outbox?
    private let key: String

    init(outbox: Outbox, key: String) {
        self.outbox = outbox
        self.key = key
    }

    func startUnderlyingOperation(passingResponseTo completionHandler: RequestCompletionHandler) {
        outbox?.attach(completionHandler, toWrite: key)
    }

    func cancelUnderlyingOperation() {
        outbox?.withdraw(key)
    }

    func repeated() -> any RequestDelegate {
        self  // the outbox sends again by itself; a repeat would send the same write twice
    }

    var requestDescription: String {
        "outbox write \(key)"
    }
}
